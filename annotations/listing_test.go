package annotations_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestParseListing(t *testing.T) {
	tl, err := annotations.Parse("readOnly,group=google.cloud.billing.v1.CloudBilling,eager")
	require.NoError(t, err)
	assert.Equal(t, annotations.Listing{Group: "google.cloud.billing.v1.CloudBilling", Eager: true}, tl.Listing)
	tl, err = annotations.Parse("group='billing/invoices',eager=false")
	require.NoError(t, err)
	assert.Equal(t, annotations.Listing{Group: "billing/invoices"}, tl.Listing)

	for tag, want := range map[string]string{
		"group":             "group needs a value (group=billing)",
		"group=":            "group needs a value (group=billing)",
		"group='a b'":       `group "a b": a group is 1 to 128 characters of A-Z, a-z, 0-9, '_', '-', '.' and '/'`,
		"eager=yes":         "eager takes no value, or true/false",
		"grup=billing":      `unknown key "grup" (did you mean "group"?)`,
		"group=a,eagre,x=1": "unknown key \"eagre\" (did you mean \"eager\"?)\nunknown key \"x\"",
	} {
		_, err := annotations.Parse(tag)
		require.Error(t, err, tag)
		assert.Equal(t, want, err.Error(), tag)
	}
}

func TestListingMerge(t *testing.T) {
	tag := annotations.Tool{Listing: annotations.Listing{Group: "tag", Eager: true}}
	assert.Equal(t, annotations.Listing{Group: "option", Eager: true},
		tag.Merge(annotations.Tool{Listing: annotations.Listing{Group: "option"}}).Listing, "an option's group wins; eager stays")
	assert.Equal(t, annotations.Listing{Group: "registry", Eager: true},
		annotations.Tool{Listing: annotations.Listing{Group: "registry"}}.Merge(annotations.Tool{Listing: annotations.Listing{Eager: true}}).Listing,
		"no group given: the default stays")
}
