package mcpgogate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/mcptest"
)

// postModern posts body, a stateless (2026-07-28) tools/call of
// get_order_status, as tok with the headers that era requires, and returns
// the response message, from a JSON body or the first event of a stream.
func postModern(t *testing.T, url, tok, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "get_order_status")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(raw))
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				raw = []byte(data)
				break
			}
		}
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

// TestModernEnvelopeRefused: over streamable HTTP in the stateless era,
// where each request stands alone, a tools/call with two arguments members
// is refused by the strict read before mcp-go reads it, and nothing runs;
// the clean one runs.
func TestModernEnvelopeRefused(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"v0"}}`
	cases := []struct {
		name, params string
		refused      bool
	}{
		{"clean", `{` + meta + `,"name":"get_order_status","arguments":{"orderId":"BOB-1"}}`, false},
		{"two arguments", `{` + meta + `,"name":"get_order_status","arguments":{"orderId":"BOB-1"},"arguments":{"orderId":"BOB-2"}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg, r := mcptest.NewRegistry(t)
			resp := postModern(t, serveHTTP(t, reg, nil), "tok-bob", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+tc.params+`}`)
			e, _ := resp["error"].(map[string]any)
			runs := r.Count()["get_order_status"]
			switch {
			case tc.refused && (e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), `duplicate member name "arguments"`) || runs != 0):
				t.Errorf("response %v, runs %d; want an invalid-request error and no run", resp, runs)
			case !tc.refused && (e != nil || runs != 1):
				t.Errorf("response %v, runs %d; want a result and one run", resp, runs)
			}
		})
	}
}
