package procstatus

import (
	"os"
	"strings"
	"testing"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Memory
		wantErr bool
	}{
		{
			name: "proc(5) layout",
			in:   "Name:\tcaddy\nVmPeak:\t 2000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t9\n",
			want: Memory{RSS: 100 << 20, HWM: 200 << 20},
		},
		{name: "no VmHWM", in: "VmRSS:\t1 kB\n", wantErr: true},
		{name: "empty", in: "", wantErr: true},
		{name: "not kB", in: "VmRSS:\t1 MB\nVmHWM:\t1 kB\n", wantErr: true},
		{name: "negative", in: "VmRSS:\t-1 kB\nVmHWM:\t1 kB\n", wantErr: true},
		{name: "not a number", in: "VmRSS:\tlots kB\nVmHWM:\t1 kB\n", wantErr: true},
		{name: "absurd", in: "VmRSS:\t99999999999999999 kB\nVmHWM:\t1 kB\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadStatusSelf(t *testing.T) {
	m, err := Read(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if m.RSS <= 0 || m.HWM < m.RSS {
		t.Errorf("own status %+v: want 0 < VmRSS <= VmHWM", m)
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add("VmHWM:\t1 kB\nVmRSS:\t1 kB\n")
	f.Add("VmRSS:\t1\n")
	f.Add(strings.Repeat("x", 70000) + "\nVmRSS: 1 kB")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(strings.NewReader(s))
		if err == nil && (m.RSS < 0 || m.HWM < 0) {
			t.Errorf("negative sizes %+v from %q", m, s)
		}
	})
}
