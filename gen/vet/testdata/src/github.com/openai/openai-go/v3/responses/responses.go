// Package responses stubs the openai-go Responses types.
package responses

type ResponseFunctionToolCall struct {
	Arguments string
	CallID    string
}

type ResponseOutputItemUnionArguments struct {
	OfString string
	OfAny    any
}

type ResponseOutputItemUnion struct {
	Type      string
	Arguments ResponseOutputItemUnionArguments
}
