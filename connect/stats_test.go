package connect

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestRefreshLogsAndStats(t *testing.T) {
	var buf bytes.Buffer
	s, err := New(Options{Origin: testOrigin}, newFakeSource(), slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	line := buf.String()
	for _, want := range []string{"connect: index refreshed", "pages=10", "fetched=10", "not_modified=0"} {
		if !strings.Contains(line, want) {
			t.Errorf("log lacks %q:\n%s", want, line)
		}
	}
	st := s.Stats()
	if st.Listed != 10 || st.Done != 10 || st.Refreshing || st.LastStart.IsZero() || st.LastError != "" {
		t.Errorf("stats %+v", st)
	}
}
