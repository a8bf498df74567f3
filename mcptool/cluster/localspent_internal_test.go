package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The in-process spent store is bounded: at its limit of unexpired ids it
// refuses (an error, so the caller fails closed) instead of growing or
// forgetting an id; once ids expire it takes new ones again, and an id it
// holds is still reported spent.
func TestLocalSpentBounded(t *testing.T) {
	ctx := context.Background()
	s := LocalSpent(4).(*localSpent)
	soon := time.Now().Add(50 * time.Millisecond)
	for i := range 4 {
		first, err := s.Spend(ctx, fmt.Sprint(i), soon)
		require.NoError(t, err)
		require.True(t, first)
	}
	first, err := s.Spend(ctx, "0", soon)
	require.NoError(t, err)
	assert.False(t, first, "an id held is spent")
	_, err = s.Spend(ctx, "new", soon)
	require.ErrorIs(t, err, ErrSpentFull)
	assert.Len(t, s.ids, 4, "nothing forgotten, nothing added")

	time.Sleep(60 * time.Millisecond)
	first, err = s.Spend(ctx, "new", time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.True(t, first, "expired ids make room")
	assert.Len(t, s.ids, 1)
}
