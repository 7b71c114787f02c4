package wire

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/provider"
)

// tools is every tool of the generated package. refund_order and
// create_shipment matter most: create_shipment has $defs/$ref, a nested
// object and an array of objects.
var tools = []struct {
	name string
	defs []provider.Definition
}{
	{"cancel_order", generated.CancelOrderDefinitions},
	{"create_shipment", generated.CreateShipmentDefinitions},
	{"get_order_status", generated.GetOrderStatusDefinitions},
	{"refund_order", generated.RefundOrderDefinitions},
	{"schedule_order_dispatch", generated.ScheduleOrderDispatchDefinitions},
	{"update_delivery_contact", generated.UpdateDeliveryContactDefinitions},
}

// forEachTool runs f as a subtest for every tool that has a definition for
// p. A tool refused for p (no definition) is skipped, saying so.
func forEachTool(t *testing.T, p provider.Provider, f func(t *testing.T, name string, def provider.Definition)) {
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			def, ok := Find(tool.defs, p)
			if !ok {
				t.Skipf("%s is refused for %s: no definition", tool.name, p)
			}
			f(t, tool.name, def)
		})
	}
}

// capture is a loopback HTTP server that records each request body and
// answers with a fixed JSON body.
type capture struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	paths  []string
}

func newCapture(t *testing.T, answer string) *capture {
	t.Helper()
	c := &capture{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		c.bodies = append(c.bodies, b)
		c.paths = append(c.paths, r.URL.Path)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	if !strings.HasPrefix(c.srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server is not on 127.0.0.1: %s", c.srv.URL)
	}
	t.Cleanup(c.srv.Close)
	return c
}

// last returns the last request's body and path.
func (c *capture) last(t *testing.T) ([]byte, string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) == 0 {
		t.Fatal("no request reached the server")
	}
	return c.bodies[len(c.bodies)-1], c.paths[len(c.paths)-1]
}

// wireTools returns the raw "tools" members of a request body, bytes as
// sent.
func wireTools(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return req.Tools
}

// member returns the raw value of a member of a JSON object, and whether it
// is there.
func member(t *testing.T, obj []byte, name string) (json.RawMessage, bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("not an object: %v\n%s", err, obj)
	}
	v, ok := m[name]
	return v, ok
}

// assertSameValue fails when got and want differ as JSON values.
func assertSameValue(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if d := JSONDiff(got, want); len(d) > 0 {
		t.Errorf("%s differs from the generated definition as a JSON value:\n  %s\ngot  %s\nwant %s", what, strings.Join(d, "\n  "), got, want)
	}
}

// assertSortedKeys fails unless every object in data lists its members in
// sorted order (what a Go map marshals to).
func assertSortedKeys(t *testing.T, what string, data []byte) {
	t.Helper()
	orders, err := KeyOrders(data)
	if err != nil {
		t.Fatal(err)
	}
	for ptr, keys := range orders {
		if !sort.StringsAreSorted(keys) {
			t.Errorf("%s: object %s has unsorted keys %v", what, orRoot(ptr), keys)
		}
	}
}

// assertOrderKept fails unless every object of want has its members in the
// same order in got.
func assertOrderKept(t *testing.T, what string, got, want []byte) {
	t.Helper()
	d, err := OrderDiffs(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) > 0 {
		t.Errorf("%s: key order differs from the generated definition:\n  %s", what, strings.Join(d, "\n  "))
	}
}

// reorderedProperties returns the pointers of the "properties" objects of
// def whose member order is not sorted: where a sorting SDK
// changes the order the model is shown.
func reorderedProperties(t *testing.T, def []byte) []string {
	t.Helper()
	orders, err := KeyOrders(def)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for ptr, keys := range orders {
		if strings.HasSuffix(ptr, "/properties") && !sort.StringsAreSorted(keys) {
			out = append(out, ptr)
		}
	}
	slices.Sort(out)
	return out
}

// htmlEscapes undoes encoding/json's HTML escaping, which every SDK here
// applies to raw JSON it sends (json.RawMessage is compacted with
// HTMLEscape): "<" becomes \u003c and so on. Same value, other bytes.
var htmlEscapes = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\u2028`, "\u2028", `\u2029`, "\u2029")

// assertSameBytes fails unless got is want byte for byte, up to
// encoding/json's HTML escaping.
func assertSameBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if htmlEscapes.Replace(string(got)) != string(want) {
		t.Errorf("%s is not the generated definition byte for byte:\ngot  %s\nwant %s", what, got, want)
	}
}
