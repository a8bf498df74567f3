package mcptool

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An embedding of the tools cut short (here, the first search's request
// cancelled during the second batch) resumes where it stopped: the next
// search embeds only the tools not embedded yet.
func TestEmbeddingResumes(t *testing.T) {
	var calls []int
	ctx, cancel := context.WithCancel(context.Background())
	embed := func(ctx context.Context, texts []string) ([][]float32, error) {
		calls = append(calls, len(texts))
		if len(calls) == 2 {
			cancel()
			return nil, ctx.Err()
		}
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = []float32{1, float32(i)}
		}
		return out, nil
	}
	r := NewRegistry(Discovery(), SearchEmbedder(embed))
	for i := range 70 {
		require.NoError(t, Add(r, fmt.Sprintf("get_invoice_%02d", i), func(context.Context, struct{}) (string, error) { return "", nil },
			Description("Shows one invoice.")))
	}
	v := r.index(r.snapshot())
	assert.Nil(t, r.disc.emb.vectors(ctx, v.docs, &v.vecs), "cancelled during the second batch")
	vecs := r.disc.emb.vectors(context.Background(), v.docs, &v.vecs)
	require.Len(t, vecs, 70)
	assert.Equal(t, []int{64, 6, 6}, calls, "the first batch was kept; the second is embedded again")
	for i, x := range vecs {
		assert.Len(t, x, 2, "tool %d", i)
	}
}
