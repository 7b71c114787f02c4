package mcpgate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// strict reads every POST body strictly (checkMessage, each message of a
// batch) before the SDK decodes it, and passes the stamped body on. A
// refused body is answered with HTTP 400 and a JSON-RPC error (invalid
// params when the params were at fault, parse error otherwise; the
// message's id when it had one and the body was one message), and the SDK
// never sees it: no session is created, nothing runs.
func strict(next http.Handler, maxBytes int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); req.Method != http.MethodPost || req.Body == nil || mt != "application/json" {
			// The SDK refuses a POST of another media type itself; it
			// reads the media type as this does (mime.ParseMediaType), so
			// every body it decodes has been read here.
			next.ServeHTTP(w, req)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, "request body exceeds "+strconv.FormatInt(mbe.Limit, 10)+" bytes", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "failed to read body", http.StatusBadRequest)
			return
		}
		body, id, err := checkBody(body, int(maxBytes))
		if err != nil {
			refuse(w, id, err)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		next.ServeHTTP(w, req)
	})
}

// checkBody reads a body of one message or a batch (a non-empty array of
// messages) strictly, and returns it stamped, and the id of a refused
// single message.
func checkBody(body []byte, maxBytes int) ([]byte, []byte, error) {
	if jsonread.KindOf(body) != jsonread.Array {
		return checkMessage(body, maxBytes)
	}
	var r jsonread.Reader
	r.Reset(body, jsonread.Limits{MaxBytes: maxBytes, MaxDepth: messageDepth})
	var spans [][2]int
	r.ArrayStart()
	for r.NextItem() {
		r.Peek()
		start := r.Offset()
		walk(&r)
		end := r.Offset()
		spans = append(spans, [2]int{end - len(r.Capture(start)), end})
	}
	r.Finish()
	if err := syntax(&r); err != nil {
		return nil, nil, err
	}
	if len(spans) == 0 {
		return nil, nil, &refusal{reason: "a batch must not be empty"}
	}
	out := make([]byte, 0, len(body))
	last := 0
	for _, s := range spans {
		msg, _, err := checkMessage(body[s[0]:s[1]], maxBytes)
		if err != nil {
			return nil, nil, err
		}
		out = append(append(out, body[last:s[0]]...), msg...)
		last = s[1]
	}
	return append(out, body[last:]...), nil, nil
}

// refuse answers a refused body.
func refuse(w http.ResponseWriter, rawID []byte, err error) {
	code := int64(jsonrpc.CodeParseError)
	var ref *refusal
	if errors.As(err, &ref) && ref.params {
		code = jsonrpc.CodeInvalidParams
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", json.RawMessage("null"), &jsonrpc.Error{Code: code, Message: "malformed payload: " + err.Error()}}
	if k := jsonread.KindOf(rawID); k == jsonread.String || k == jsonread.Number {
		resp.ID = rawID
	}
	b, merr := json.Marshal(resp)
	if merr != nil {
		http.Error(w, "malformed payload", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(b)
}

// bodyLimit is the body limit of the HTTP options: MaxRequestBodyBytes, or
// the SDK's default when it is not positive (the strict reader reads the
// whole body, so it is always bounded).
func bodyLimit(o *mcp.StreamableHTTPOptions) int64 {
	if o != nil && o.MaxRequestBodyBytes > 0 {
		return o.MaxRequestBodyBytes
	}
	return mcp.DefaultMaxRequestBodyBytes
}
