package pagination_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sort"

	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// A store hands Fetch the items strictly after a sort key, in its stable
// order; Fetch sizes the page, signs the cursor and tells whether more remain.
func ExampleFetch() {
	ids := []string{"loc_a", "loc_b", "loc_c", "loc_d", "loc_e"}
	after := func(_ context.Context, key *string, n int) ([]string, error) {
		start := 0
		if key != nil {
			start = sort.SearchStrings(ids, *key+"\x00")
		}
		return ids[start:min(start+n, len(ids))], nil
	}
	signer, err := pagination.NewSigner("k1", map[string][]byte{"k1": []byte("an example key of 32 bytes long!")})
	if err != nil {
		log.Fatal(err)
	}
	// Bind every cursor to the request's constraints, here one query text.
	digest := pagination.ConstraintDigest([]byte(`{"query":"express"}`))

	limit := 2
	req := pagination.Request{Limit: &limit}
	for {
		page, err := pagination.Fetch(context.Background(), signer, pagination.Options{}, req, digest, after,
			func(id string) string { return id }, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(page.Items, page.HasNextPage)
		if !page.HasNextPage {
			break
		}
		req.Cursor = &page.Cursor
	}
	// Output:
	// [loc_a loc_b] true
	// [loc_c loc_d] true
	// [loc_e] false
}

// A cursor only continues the query it was issued for: sent with other
// constraints, it is refused at its JSON Pointer.
func ExampleSigner_Verify() {
	signer, err := pagination.NewSigner("k1", map[string][]byte{"k1": []byte("an example key of 32 bytes long!")})
	if err != nil {
		log.Fatal(err)
	}
	cursor, err := signer.Sign("loc_b", pagination.ConstraintDigest([]byte(`{"query":"express"}`)))
	if err != nil {
		log.Fatal(err)
	}

	key, err := signer.Verify(cursor, pagination.ConstraintDigest([]byte(`{"query":"express"}`)))
	fmt.Println(key, err)

	_, err = signer.Verify(cursor, pagination.ConstraintDigest([]byte(`{"query":"pharmacy"}`)))
	var invalid *rpcerr.InvalidParams
	if errors.As(err, &invalid) {
		v := invalid.Violations[0]
		fmt.Println(v.Pointer, v.Message == pagination.MsgCursorMismatch)
	}
	// Output:
	// loc_b <nil>
	// /pagination/cursor true
}

// A Business's page-size policy: absent means the default, too large is
// lowered to the maximum (as the spec allows), below 1 is refused.
func ExampleOptions_Limit() {
	opts := pagination.Options{DefaultLimit: 20, MaxLimit: 50}
	for _, requested := range []*int{nil, ptr(30), ptr(500), ptr(0)} {
		n, err := opts.Limit(requested)
		fmt.Println(n, err)
	}
	// Output:
	// 20 <nil>
	// 30 <nil>
	// 50 <nil>
	// 0 invalid params: /pagination/limit: must be at least 1, got 0
}

func ptr(n int) *int { return &n }
