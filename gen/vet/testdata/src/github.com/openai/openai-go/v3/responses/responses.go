// Package responses stubs the openai-go Responses types.
package responses

type ResponseFunctionToolCall struct {
	Arguments string
	CallID    string
}
