package mcpredis_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
)

func TestStateKeyFromEnv(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	b64 := base64.StdEncoding.EncodeToString(key)
	dir := t.TempDir()
	raw, text, short := filepath.Join(dir, "raw"), filepath.Join(dir, "text"), filepath.Join(dir, "short")
	_ = os.WriteFile(raw, key, 0o600)
	_ = os.WriteFile(text, []byte(b64+"\n"), 0o600)
	_ = os.WriteFile(short, []byte(base64.StdEncoding.EncodeToString(key[:16])), 0o600)
	for _, c := range []struct {
		name, env, file string
		want            []byte
		err             string
	}{
		{name: "unset"},
		{name: "env", env: b64, want: key},
		{name: "env url alphabet", env: base64.RawURLEncoding.EncodeToString(append([]byte{0xfb, 0xff}, key[2:]...)), want: append([]byte{0xfb, 0xff}, key[2:]...)},
		{name: "env wins", env: b64, file: short, want: key},
		{name: "raw file", file: raw, want: key},
		{name: "base64 file", file: text, want: key},
		{name: "short env", env: base64.StdEncoding.EncodeToString(key[:16]), err: "16 bytes; want 32"},
		{name: "short file", file: short, err: "16 bytes; want 32"},
		{name: "not base64", env: "not*base64", err: "not base64"},
		{name: "missing file", file: filepath.Join(dir, "none"), err: "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(mcpredis.EnvStateKey, c.env)
			t.Setenv(mcpredis.EnvStateKeyFile, c.file)
			got, err := mcpredis.StateKeyFromEnv()
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("got %x, %v; want %x", got, err, c.want)
			}
		})
	}
}

// Without configuration, replicas share a key made once in Redis.
func TestStateKeySharedThroughRedis(t *testing.T) {
	srv := startRedis(t)
	a, b := open(t, srv, nil), open(t, srv, nil)
	if len(a.StateKey()) != 32 || !bytes.Equal(a.StateKey(), b.StateKey()) {
		t.Fatalf("keys %x and %x: want one shared 32-byte key", a.StateKey(), b.StateKey())
	}
	c := open(t, srv, &mcpredis.Options{Prefix: "other:"})
	if bytes.Equal(a.StateKey(), c.StateKey()) {
		t.Fatal("another prefix got the same key")
	}
}
