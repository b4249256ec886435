package frontmatter

import (
	"net/http"
	"strings"
	"time"
)

// dateLayouts are the timestamp forms pages use, most common first: RFC 3339
// and its ISO 8601 relatives, then the HTTP-date of RFC 9110 §5.6.7.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02",
	http.TimeFormat,
	time.RFC1123Z,
	time.RFC850,
	time.ANSIC,
}

// Date returns the calendar date (YYYY-MM-DD) of a timestamp written in one
// of the common forms, in the timestamp's own offset, or "" when s is not a
// date. Nothing is guessed: an unparsable value gives "".
func Date(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < len("2006-01-02") || len(s) > 64 {
		return ""
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if t.Year() < 1000 || t.Year() > 9999 {
				return ""
			}
			return t.Format(time.DateOnly)
		}
	}
	return ""
}

// firstDate returns the date of the first candidate that holds one.
func firstDate(candidates ...string) string {
	for _, c := range candidates {
		if d := Date(c); d != "" {
			return d
		}
	}
	return ""
}

// latest returns the latest of dates (YYYY-MM-DD, which sort as strings),
// or "".
func latest(dates []string) string {
	l := ""
	for _, d := range dates {
		l = max(l, d)
	}
	return l
}

// single returns the date when dates hold one distinct date, else "".
func single(dates []string) string {
	for _, d := range dates {
		if d != dates[0] {
			return ""
		}
	}
	if len(dates) == 0 {
		return ""
	}
	return dates[0]
}
