// Package traffic tells a site owner who reads the site.
package traffic
