package mcpproto_test

import (
	"errors"
	"time"
)

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func errAs(err error, target any) bool { return errors.As(err, target) }
