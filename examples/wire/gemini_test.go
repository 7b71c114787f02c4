package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/provider"
	"google.golang.org/genai"
)

// geminiAnswer is a generateContent response without calls.
const geminiAnswer = `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}],"modelVersion":"gemini-test","responseId":"resp-0"}`

// geminiModel is the model the requests name; its path on the wire.
const (
	geminiModel = "gemini-test"
	geminiPath  = "/v1beta/models/" + geminiModel + ":generateContent"
)

// geminiClient is a genai client for the Gemini API whose requests go to
// the capture server, with the API key "test".
func geminiClient(t *testing.T, c *capture) *genai.Client {
	t.Helper()
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "test",
		Backend:     genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: c.srv.URL + "/", APIVersion: "v1beta"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// geminiRequest is what a generateContent request body carries, raw.
type geminiRequest struct {
	Contents []json.RawMessage `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
}

// generate sends contents (and the declarations, if any) through the
// genai client to a capture server answering answer; it returns the SDK's
// response and the request body as it crossed the wire.
func generate(t *testing.T, answer string, contents []*genai.Content, decls ...*genai.FunctionDeclaration) (*genai.GenerateContentResponse, geminiRequest) {
	t.Helper()
	c := newCapture(t, answer)
	var config *genai.GenerateContentConfig
	if len(decls) > 0 {
		config = &genai.GenerateContentConfig{Tools: []*genai.Tool{{FunctionDeclarations: decls}}}
	}
	resp, err := geminiClient(t, c).Models.GenerateContent(context.Background(), geminiModel, contents, config)
	if err != nil {
		t.Fatalf("generateContent: %v", err)
	}
	body, path := c.last(t)
	if path != geminiPath {
		t.Fatalf("request went to %s, want %s", path, geminiPath)
	}
	if got := c.srv.URL; !strings.HasPrefix(got, "http://127.0.0.1:") {
		t.Fatalf("not loopback: %s", got)
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return resp, req
}

// sendDeclaration sends one function declaration and returns it as it
// crossed the wire.
func sendDeclaration(t *testing.T, decl *genai.FunctionDeclaration) []byte {
	t.Helper()
	_, req := generate(t, geminiAnswer, genai.Text("Refund order A-19."), decl)
	if len(req.Tools) != 1 || len(req.Tools[0].FunctionDeclarations) != 1 {
		t.Fatalf("tools on the wire: %+v", req.Tools)
	}
	return req.Tools[0].FunctionDeclarations[0]
}

// TestGeminiWire sends every tool's generated Gemini definition through
// genai's generateContent, built two ways: raw (the schema as
// json.RawMessage in ParametersJsonSchema) and unmarshal (json.Unmarshal
// of the definition into the SDK's FunctionDeclaration). Both arrive as
// the definition's value, with parametersJsonSchema and no legacy
// parameters. Neither keeps the key order: genai converts every request
// through map[string]any before sending it, so both go out as the same
// bytes, every object's members sorted — the order of properties the model
// is shown is lost where it was not sorted, whatever the construction.
func TestGeminiWire(t *testing.T) {
	reordered := 0
	forEachTool(t, provider.Gemini, func(t *testing.T, name string, def provider.Definition) {
		want := []byte(def.JSON)
		var d struct {
			Name                 string          `json:"name"`
			Description          string          `json:"description"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		}
		dec := json.NewDecoder(bytes.NewReader(want))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil || len(d.ParametersJSONSchema) == 0 {
			t.Fatalf("definition: %v %s", err, want)
		}
		var decl genai.FunctionDeclaration
		if err := json.Unmarshal(want, &decl); err != nil {
			t.Fatal(err)
		}
		sent := map[string][]byte{}
		for _, c := range []struct {
			name string
			decl *genai.FunctionDeclaration
		}{
			{"raw", &genai.FunctionDeclaration{Name: d.Name, Description: d.Description, ParametersJsonSchema: d.ParametersJSONSchema}},
			{"unmarshal", &decl},
		} {
			got := sendDeclaration(t, c.decl)
			assertSameValue(t, c.name+": functionDeclarations[0]", got, want)
			if _, ok := member(t, got, "parametersJsonSchema"); !ok {
				t.Errorf("%s: no parametersJsonSchema on the wire: %s", c.name, got)
			}
			if _, ok := member(t, got, "parameters"); ok {
				t.Errorf("%s: a legacy parameters member went out: %s", c.name, got)
			}
			assertSortedKeys(t, c.name+": functionDeclarations[0]", got)
			sent[c.name] = got
		}
		if !bytes.Equal(sent["raw"], sent["unmarshal"]) {
			t.Errorf("the two constructions went out as different bytes:\nraw       %s\nunmarshal %s", sent["raw"], sent["unmarshal"])
		}
		if p := reorderedProperties(t, d.ParametersJSONSchema); len(p) > 0 {
			reordered++
			t.Logf("documented trap: genai sends the properties at %v sorted", p)
		}
	})
	if reordered == 0 {
		t.Error("no tool has unsorted properties: the map-order trap was not exercised")
	}
}

// TestGeminiLegacyWire sends every tool's gemini-legacy definition
// through genai as the SDK's own Schema (json.Unmarshal into
// FunctionDeclaration, refusing any member the SDK has no field for): the
// declaration arrives as the definition's value, with the OpenAPI subset's
// keywords (upper-case types, nullable, propertyOrdering) intact.
func TestGeminiLegacyWire(t *testing.T) {
	forEachTool(t, provider.GeminiLegacy, func(t *testing.T, name string, def provider.Definition) {
		want := []byte(def.JSON)
		var decl genai.FunctionDeclaration
		dec := json.NewDecoder(bytes.NewReader(want))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&decl); err != nil {
			t.Fatalf("the legacy definition has a member genai's FunctionDeclaration cannot carry: %v", err)
		}
		if decl.Parameters == nil || decl.ParametersJsonSchema != nil {
			t.Fatalf("legacy definition without parameters: %s", want)
		}
		got := sendDeclaration(t, &decl)
		assertSameValue(t, "functionDeclarations[0]", got, want)
		if _, ok := member(t, got, "parametersJsonSchema"); ok {
			t.Errorf("parametersJsonSchema went out for a legacy definition: %s", got)
		}
	})
}
