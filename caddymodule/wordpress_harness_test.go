//go:build linux

package caddymodule

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The WordPress harness: Debian's wordpress package served by its own
// MariaDB and php-fpm, private to one test (a data directory, sockets and a
// copy of the WordPress entry points in the test's temporary directory),
// so it runs as well on a clean CI machine without systemd as on a
// developer's machine with a MariaDB of its own.

// wordpressDir is where Debian's wordpress package installs WordPress.
const wordpressDir = "/usr/share/wordpress"

// wpTools are the programs the harness runs.
type wpTools struct {
	installDB, mariadbd, phpFPM, php string
}

// needWordPress finds the harness's programs. .ci/run installs them
// (wordpress, mariadb-server, php-fpm, php-mysql, php-xml, php-cli);
// elsewhere the test is skipped unless CI is set, where their absence is a
// failure.
func needWordPress(t *testing.T) wpTools {
	t.Helper()
	if testing.Short() {
		t.Skip("WordPress end-to-end test skipped in -short mode")
	}
	var tools wpTools
	var missing []string
	look := func(dst *string, pkg string, names ...string) {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				*dst = p
				return
			}
			// Debian's sbin is not on every user's PATH.
			if p := "/usr/sbin/" + n; isExecutable(p) {
				*dst = p
				return
			}
		}
		missing = append(missing, pkg)
	}
	look(&tools.installDB, "mariadb-server", "mariadb-install-db", "mysql_install_db")
	look(&tools.mariadbd, "mariadb-server", "mariadbd", "mysqld")
	fpm, _ := filepath.Glob("/usr/sbin/php-fpm*")
	look(&tools.phpFPM, "php-fpm", append([]string{"php-fpm"}, fpm...)...)
	look(&tools.php, "php-cli", "php")
	if _, err := os.Stat(filepath.Join(wordpressDir, "wp-settings.php")); err != nil {
		missing = append(missing, "wordpress")
	}
	if len(missing) > 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but %s missing: .ci/run must install Debian's wordpress, mariadb-server, php-fpm, php-mysql, php-xml and php-cli", strings.Join(missing, ", "))
		}
		t.Skipf("WordPress end-to-end test needs Debian's %s (apt-get install wordpress mariadb-server php-fpm php-mysql php-xml php-cli)", strings.Join(missing, ", "))
	}
	return tools
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// wordpressSite is a running, installed and seeded WordPress.
type wordpressSite struct {
	root string // the document root Caddy serves
	fpm  string // php-fpm's unix socket
	port int    // the port the site's address names: Caddy must listen there
	base string // the site's address, http://127.0.0.1:port
	// pass is the password of the administrator "admin".
	pass string
	// Seeded is what the seed script made: permalinks by name.
	Seeded map[string]string
}

// startWordPress starts MariaDB and php-fpm, installs WordPress at
// http://127.0.0.1:<a free port> and seeds it with posts (a heading, a
// list, a code block, a table, an image and a comment), pages and a
// category. Everything stops when the test ends.
func startWordPress(t *testing.T, tools wpTools) *wordpressSite {
	t.Helper()
	tmp := t.TempDir()
	wp := &wordpressSite{
		root: filepath.Join(tmp, "wp"),
		fpm:  filepath.Join(tmp, "php.sock"),
		port: freePort(t),
		pass: "agent-ready-test",
	}
	wp.base = fmt.Sprintf("http://127.0.0.1:%d", wp.port)
	dbSock := filepath.Join(tmp, "mariadb.sock")
	startMariaDB(t, tools, tmp, dbSock)
	copyWordPress(t, wp.root)
	writeFile(t, filepath.Join(wp.root, "wp-config.php"), wpConfig(dbSock, wp.base))
	startPHPFPM(t, tools, tmp, wp.fpm)

	env := []string{"WP_TEST_ROOT=" + wp.root, "WP_TEST_DB_SOCKET=" + dbSock, "WP_TEST_PASSWORD=" + wp.pass}
	runPHP(t, tools, tmp, "install.php", wpInstallScript, env)
	out := runPHP(t, tools, tmp, "seed.php", wpSeedScript, env)
	if err := json.Unmarshal(out, &wp.Seeded); err != nil {
		t.Fatalf("seed script: %v\n%s", err, out)
	}
	return wp
}

// startMariaDB initialises a data directory and runs mariadbd on a unix
// socket only, root without a password.
func startMariaDB(t *testing.T, tools wpTools, tmp, sock string) {
	t.Helper()
	data := filepath.Join(tmp, "mariadb")
	args := []string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	if out, err := exec.Command(tools.installDB, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	args = []string{"--no-defaults", "--datadir=" + data, "--socket=" + sock, "--skip-networking",
		"--pid-file=" + filepath.Join(tmp, "mariadb.pid"), "--log-error=" + filepath.Join(tmp, "mariadb.log"),
		"--innodb-buffer-pool-size=16M", "--performance-schema=off", "--skip-log-bin"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	startDaemon(t, "mariadbd", exec.Command(tools.mariadbd, args...), sock, filepath.Join(tmp, "mariadb.log"))
}

// startPHPFPM runs php-fpm with one private pool on a unix socket.
func startPHPFPM(t *testing.T, tools wpTools, tmp, sock string) {
	t.Helper()
	conf := filepath.Join(tmp, "php-fpm.conf")
	var pool strings.Builder
	fmt.Fprintf(&pool, "[global]\npid = %s\nerror_log = %s\ndaemonize = no\n\n[agentready]\n",
		filepath.Join(tmp, "php-fpm.pid"), filepath.Join(tmp, "php-fpm.log"))
	args := []string{"--nodaemonize", "--fpm-config", conf}
	if os.Geteuid() == 0 {
		// php-fpm refuses to run a pool as root unless told to (-R).
		args = append(args, "-R")
		pool.WriteString("user = root\n")
	} else if u, err := user.Current(); err == nil {
		fmt.Fprintf(&pool, "user = %s\n", u.Username)
	}
	fmt.Fprintf(&pool, "listen = %s\npm = static\npm.max_children = 4\nclear_env = no\ncatch_workers_output = yes\n", sock)
	writeFile(t, conf, pool.String())
	startDaemon(t, "php-fpm", exec.Command(tools.phpFPM, args...), sock, filepath.Join(tmp, "php-fpm.log"))
}

// startDaemon starts cmd in a process group of its own, waits until its
// unix socket accepts connections and stops the group when the test ends
// (or, should the test binary die first, when it does).
func startDaemon(t *testing.T, name string, cmd *exec.Cmd, sock, logFile string) {
	t.Helper()
	out, err := os.Create(logFile + ".out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		// SIGTERM lets php-fpm stop its workers and mariadbd its tables.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			log, _ := os.ReadFile(logFile)
			msg, _ := os.ReadFile(logFile + ".out")
			t.Fatalf("%s exited: %v\n%s\n%s", name, err, msg, log)
		default:
		}
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	log, _ := os.ReadFile(logFile)
	t.Fatalf("%s does not listen on %s\n%s", name, sock, log)
}

// copyWordPress builds the site's document root: a copy of WordPress's
// entry points and of wp-admin (PHP finds wp-config.php from the real
// path of the script it runs, so those must be copies), links to
// wp-includes and to the shipped themes and plugins, and an uploads
// directory of its own.
func copyWordPress(t *testing.T, root string) {
	t.Helper()
	entries, err := os.ReadDir(wordpressDir)
	if err != nil {
		t.Fatal(err)
	}
	mkdirAll(t, root)
	for _, e := range entries {
		src, dst := filepath.Join(wordpressDir, e.Name()), filepath.Join(root, e.Name())
		switch {
		case e.Name() == "wp-config.php", e.Name() == ".htaccess":
			// Debian's looks its configuration up in /etc/wordpress by
			// host; the site gets its own. Caddy reads no .htaccess.
		case e.Name() == "wp-content":
			for _, d := range []string{"themes", "plugins"} {
				mkdirAll(t, filepath.Join(dst))
				if err := os.Symlink(filepath.Join(src, d), filepath.Join(dst, d)); err != nil {
					t.Fatal(err)
				}
			}
			mkdirAll(t, filepath.Join(dst, "uploads"))
		case e.Name() == "wp-includes":
			if err := os.Symlink(src, dst); err != nil {
				t.Fatal(err)
			}
		default:
			if err := copyTree(src, dst); err != nil {
				t.Fatalf("copying %s: %v", src, err)
			}
		}
	}
}

// copyTree copies a file or a directory (symbolic links as links).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

func mkdirAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runPHP runs a PHP script with php-cli and returns its standard output.
func runPHP(t *testing.T, tools wpTools, dir, name, script string, env []string) []byte {
	t.Helper()
	file := filepath.Join(dir, name)
	writeFile(t, file, script)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tools.php, file)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("php %s: %v\n%s\n%s", name, err, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}

// wpConfig is the site's wp-config.php: the private database, the site's
// address, no outgoing HTTP, no cron, no automatic updates.
func wpConfig(dbSock, base string) string {
	return strings.NewReplacer("{socket}", dbSock, "{base}", base).Replace(`<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:{socket}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('AUTH_KEY', 'test auth key');
define('SECURE_AUTH_KEY', 'test secure auth key');
define('LOGGED_IN_KEY', 'test logged in key');
define('NONCE_KEY', 'test nonce key');
define('AUTH_SALT', 'test auth salt');
define('SECURE_AUTH_SALT', 'test secure auth salt');
define('LOGGED_IN_SALT', 'test logged in salt');
define('NONCE_SALT', 'test nonce salt');
$table_prefix = 'wp_';
define('WP_HOME', '{base}');
define('WP_SITEURL', '{base}');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH')) {
	define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
`)
}

// wpInstallScript creates the database, runs WordPress's installer and
// sets the theme and pretty permalinks (before the seed script runs, so
// that the permalinks it prints are the pretty ones).
const wpInstallScript = `<?php
$db = new mysqli('localhost', 'root', '', '', 0, getenv('WP_TEST_DB_SOCKET'));
$db->query('CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4');
define('WP_INSTALLING', true);
require getenv('WP_TEST_ROOT') . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$r = wp_install('Caddy Notes', 'admin', 'admin@example.com', true, '', getenv('WP_TEST_PASSWORD'));
if (is_wp_error($r)) {
	fwrite(STDERR, $r->get_error_message());
	exit(1);
}
switch_theme('twentytwentythree');
update_option('blogdescription', 'Running Caddy in front of things');
global $wp_rewrite;
$wp_rewrite->set_permalink_structure('/%postname%/');
flush_rewrite_rules(false);
`

// wpSeedScript gives the site the content the test reads; it prints the
// permalinks it made as JSON.
const wpSeedScript = `<?php
require getenv('WP_TEST_ROOT') . '/wp-load.php';
wp_set_current_user(1);
kses_remove_filters();

function must($id) {
	if (is_wp_error($id) || !$id) {
		fwrite(STDERR, is_wp_error($id) ? $id->get_error_message() : 'insert failed');
		exit(1);
	}
	return $id;
}

$guides = must(wp_insert_term('Guides', 'category', ['slug' => 'guides']));
$upload = WP_CONTENT_DIR . '/uploads/2024/05';
wp_mkdir_p($upload);
file_put_contents($upload . '/request-flow.png', base64_decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='));

$post = must(wp_insert_post([
	'post_title' => 'Configuring the reverse proxy',
	'post_name' => 'configuring-reverse-proxy',
	'post_status' => 'publish',
	'post_date' => '2024-05-14 09:30:00',
	'post_category' => [$guides['term_id']],
	'tags_input' => ['caddy', 'proxy'],
	'post_content' => <<<'HTML'
<!-- wp:paragraph -->
<p>Caddy sits in front of WordPress and hands every PHP request to php-fpm.</p>
<!-- /wp:paragraph -->

<!-- wp:heading -->
<h2>Before you start</h2>
<!-- /wp:heading -->

<!-- wp:list -->
<ul><li>A Caddy built with the module</li><li>php-fpm listening on a socket</li><li>The site's YAML file</li></ul>
<!-- /wp:list -->

<!-- wp:heading -->
<h2>The Caddyfile</h2>
<!-- /wp:heading -->

<!-- wp:code -->
<pre class="wp-block-code"><code>php_fastcgi unix//run/php/php8.2-fpm.sock</code></pre>
<!-- /wp:code -->

<!-- wp:table -->
<figure class="wp-block-table"><table><thead><tr><th>Directive</th><th>Purpose</th></tr></thead><tbody><tr><td>encode</td><td>Compression</td></tr><tr><td>php_fastcgi</td><td>Runs PHP</td></tr></tbody></table></figure>
<!-- /wp:table -->

<!-- wp:image {"sizeSlug":"full"} -->
<figure class="wp-block-image size-full"><img src="/wp-content/uploads/2024/05/request-flow.png" alt="Request flow from Caddy to php-fpm"/></figure>
<!-- /wp:image -->
HTML,
]));
must(wp_insert_comment([
	'comment_post_ID' => $post,
	'comment_author' => 'Ada',
	'comment_author_email' => 'ada@example.com',
	'comment_content' => 'Worked the first time, thanks.',
	'comment_approved' => 1,
	'comment_date' => '2024-05-15 08:00:00',
]));
$second = must(wp_insert_post([
	'post_title' => 'Caching pages at the edge',
	'post_name' => 'caching-pages',
	'post_status' => 'publish',
	'post_date' => '2024-04-02 14:00:00',
	'post_category' => [$guides['term_id']],
	'post_content' => "<!-- wp:paragraph -->\n<p>A shared cache keys the page on the Accept header.</p>\n<!-- /wp:paragraph -->",
]));
$about = must(wp_insert_post([
	'post_type' => 'page',
	'post_title' => 'About',
	'post_name' => 'about',
	'post_status' => 'publish',
	'post_date' => '2024-03-01 10:00:00',
	'post_content' => "<!-- wp:paragraph -->\n<p>This site collects notes on running Caddy.</p>\n<!-- /wp:paragraph -->",
]));
echo json_encode([
	'post_id' => strval($post),
	'post' => get_permalink($post),
	'second' => get_permalink($second),
	'about' => get_permalink($about),
	'category' => get_category_link($guides['term_id']),
]);
`
