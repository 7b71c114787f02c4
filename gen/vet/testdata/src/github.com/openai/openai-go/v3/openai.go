// Package openai stubs the openai-go types the analyzer reads.
package openai

type ChatCompletionMessageFunctionToolCallFunction struct {
	Arguments string
	Name      string
}

type ChatCompletionMessageToolCallUnion struct {
	ID       string
	Function ChatCompletionMessageFunctionToolCallFunction
}

type ChatCompletionMessage struct {
	ToolCalls []ChatCompletionMessageToolCallUnion
}

// ChatCompletionMessageFunctionToolCallFunctionParam is what a service
// sends, not what the model wrote.
type ChatCompletionMessageFunctionToolCallFunctionParam struct {
	Arguments string
}
