# Varnish as a shared cache in front of agent_ready (see Caddyfile here).
#
#   varnishd -F -j none -n /tmp/cdn -a 127.0.0.1:8088 -f "$PWD/examples/cdn/varnish.vcl"
#
# Varnish honours Vary natively: the hash is the URL and Host, and each
# distinct Accept value is a separate variant of that object, so a browser
# never receives the Markdown stored for an agent. The built-in VCL does the
# rest (Cache-Control max-age, no caching of Set-Cookie or private
# responses); only the X-Cache header below is added, to show hits.
vcl 4.1;

backend agent_ready {
	.host = "127.0.0.1";
	.port = "8090";
}

sub vcl_deliver {
	if (obj.hits > 0) {
		set resp.http.X-Cache = "HIT";
	} else {
		set resp.http.X-Cache = "MISS";
	}
}
