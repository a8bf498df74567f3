package mcpredis

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Environment variables [StateKeyFromEnv] reads.
const (
	EnvStateKey     = "MCPGEN_STATE_KEY"      // base64 of 32 bytes
	EnvStateKeyFile = "MCPGEN_STATE_KEY_FILE" // a file holding the base64, or the 32 bytes
)

// StateKeyFromEnv returns the key that seals requestState (see
// mcptool.StateKey) from the environment: MCPGEN_STATE_KEY, the base64
// (standard or URL alphabet, padded or not) of 32 bytes, or else the file
// named by MCPGEN_STATE_KEY_FILE, holding that base64 or the 32 raw bytes.
// It returns nil, nil when neither is set. Every replica must use the same
// key, so that a 2026-07-28 input round trip (confirm, elicit) whose second
// leg reaches another replica is accepted there.
func StateKeyFromEnv() ([]byte, error) {
	if v := os.Getenv(EnvStateKey); v != "" {
		k, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("mcpredis: %s: %w", EnvStateKey, err)
		}
		return k, nil
	}
	name := os.Getenv(EnvStateKeyFile)
	if name == "" {
		return nil, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("mcpredis: %s: %w", EnvStateKeyFile, err)
	}
	if len(b) == 32 {
		return b, nil
	}
	k, err := decodeKey(string(bytes.TrimSpace(b)))
	if err != nil {
		return nil, fmt.Errorf("mcpredis: %s %s: %w", EnvStateKeyFile, name, err)
	}
	return k, nil
}

func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	var k []byte
	var err error
	if strings.ContainsAny(s, "-_") {
		k, err = base64.RawURLEncoding.DecodeString(s)
	} else {
		k, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil {
		return nil, errors.New("not base64")
	}
	if len(k) != 32 {
		return nil, fmt.Errorf("the key is %d bytes; want 32 (make one with: head -c32 /dev/urandom | base64)", len(k))
	}
	return k, nil
}

// sharedStateKey returns the key kept in Redis, making it on first use:
// the fallback when no key is configured. Whoever can read the Redis
// database can then forge requestState; configure a key to avoid that.
func sharedStateKey(ctx context.Context, rdb redis.UniversalClient, key string) ([]byte, error) {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	if err := rdb.SetNX(ctx, key, k, 0).Err(); err != nil {
		return nil, fmt.Errorf("mcpredis: state key: %w", err)
	}
	b, err := rdb.Get(ctx, key).Bytes()
	if err != nil {
		return nil, fmt.Errorf("mcpredis: state key: %w", err)
	}
	if len(b) != 32 {
		return nil, fmt.Errorf("mcpredis: state key %s in Redis is %d bytes; want 32", key, len(b))
	}
	return b, nil
}
