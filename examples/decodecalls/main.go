// Command decodecalls shows what the generated decoders in
// github.com/toolgate/toolgate/generated do with the arguments a model
// proposes for refund_order: a typed value for a good call, a stable,
// structured error for every bad one.
//
//	go run ./decodecalls
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// calls are arguments a model might send for refund_order.
var calls = []string{
	`{"orderId":"A-19","amountInCents":2500,"reason":"requested_by_customer"}`,
	`{"orderId":"A-19","amount":"all"}`,
	`{"orderId":"A-19","amountInCents":"2500","reason":"duplicate"}`,
	`{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","approvedBy":"manager"}`,
	`{"orderId":"A-19","amountInCents":2500,"reason":"duplicate","orderId":"B-7"}`,
	`"{\"orderId\":\"A-19\",\"amountInCents\":2500,\"reason\":\"duplicate\"}"`,
}

func main() {
	for _, c := range calls {
		fmt.Println(describe([]byte(c)))
	}
}

// describe decodes one call and says what happened.
func describe(call []byte) string {
	args, err := generated.DecodeRefundOrderArgs(call)
	if err != nil {
		var e *toolerr.Error
		if !errors.As(err, &e) {
			fmt.Fprintln(os.Stderr, "unexpected error:", err)
			os.Exit(1)
		}
		out, _ := json.Marshal(e)
		return fmt.Sprintf("%s\n  refused, sent back to the model: %s", call, out)
	}
	return fmt.Sprintf("%s\n  accepted: refund %d cents on %s (%s), notify=%t", call, args.AmountInCents, args.OrderID, args.Reason, args.NotifyCustomerOrDefault())
}
