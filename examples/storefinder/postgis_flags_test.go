package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

func TestPostgresAndCursorKeyFlags(t *testing.T) {
	c, err := parseFlags([]string{"--postgres", "postgres://u@127.0.0.1:1/db", "--data", "f.json", "--cursor-keys", "keys.json"})
	if err != nil {
		t.Fatal(err)
	}
	if c.postgres != "postgres://u@127.0.0.1:1/db" || c.data != "f.json" || c.cursorKeys != "keys.json" {
		t.Fatalf("parsed %+v", c)
	}

	bad := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(bad, []byte(`{"current":"k1","keys":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STOREFINDER_CURSOR_KEYS", "")
	tests := []struct {
		name string
		c    config
		want string
	}{
		{"bad key file", config{cursorKeys: bad}, "--cursor-keys"},
		{"missing key file", config{cursorKeys: filepath.Join(t.TempDir(), "none.json")}, "--cursor-keys"},
		{"bad DSN", config{postgres: "postgres://%zz"}, "--postgres"},
		{"unreachable database", config{postgres: "postgres://u@127.0.0.1:1/db?connect_timeout=2"}, "--postgres"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pools []*pgxpool.Pool
			tc.c.pools = &pools
			_, _, err := newServer(tc.c, nil)
			for _, p := range pools {
				p.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to name %s", err, tc.want)
			}
		})
	}
}
