package integration_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
)

// Rows of the behaviour matrix for update_delivery_contact, the demo tool
// with composition keywords: contact is a tagged anyOf (told apart by kind,
// decoded into a typed sum), instructions an anyOf [string, null]. They
// join behaviourCases, so TestBehaviourTable, the round trips and
// TestGateFailureMatrix (nothing runs for a refused row) cover them.

const contactT = generated.UpdateDeliveryContactToolName

// contact is a valid update_delivery_contact call by email, with kv
// overriding its members.
func contact(kv ...string) string {
	return object([]string{"order_id", `"A-19"`, "contact", `{"kind":"email","email":"ada@example.com"}`, "instructions", "null"}, kv...)
}

var composeCases = []behaviourCase{
	{"compose/email", contactT, contact(), okThen(func(t *testing.T, a generated.UpdateDeliveryContactArgs) {
		e, isEmail := a.Contact.Email()
		if _, isPhone := a.Contact.Phone(); !isEmail || isPhone || e.Email != "ada@example.com" || e.Kind != "email" {
			t.Errorf("contact %+v: email %v, phone %v", e, isEmail, isPhone)
		}
		if !a.Instructions.IsNull() {
			t.Errorf("instructions %+v, want null", a.Instructions)
		}
	})},
	{"compose/phone", contactT, contact("contact", `{"phone":"+447700900123","kind":"phone"}`, "instructions", `"leave with the neighbour"`),
		okThen(func(t *testing.T, a generated.UpdateDeliveryContactArgs) {
			p, isPhone := a.Contact.Phone()
			if _, isEmail := a.Contact.Email(); !isPhone || isEmail || p.Phone != "+447700900123" || p.Kind != "phone" {
				t.Errorf("contact %+v: phone %v, email %v", p, isPhone, isEmail)
			}
			if v, set := a.Instructions.Get(); !set || v != "leave with the neighbour" {
				t.Errorf("instructions %+v", a.Instructions)
			}
		})},
	{"compose/unknown-kind", contactT, contact("contact", `{"kind":"fax","fax":"+447700900123"}`), bad("anyOf", "/contact").sp("/properties/contact/anyOf")},
	{"compose/no-kind", contactT, contact("contact", `{"email":"ada@example.com"}`), bad("anyOf", "/contact").sp("/properties/contact/anyOf")},
	{"compose/kind-not-a-string", contactT, contact("contact", `{"kind":1,"email":"ada@example.com"}`), bad("anyOf", "/contact")},
	{"compose/contact-not-an-object", contactT, contact("contact", `"ada@example.com"`), bad("anyOf", "/contact")},
	{"compose/mismatched-kind", contactT, contact("contact", `{"kind":"email","phone":"+447700900123"}`),
		bad("additionalProperties", "/contact/phone").sp("/properties/contact/anyOf/0/additionalProperties").and("required", "/contact")},
	{"compose/other-branch-member", contactT, contact("contact", `{"kind":"phone","phone":"+447700900123","email":"ada@example.com"}`),
		bad("additionalProperties", "/contact/email").sp("/properties/contact/anyOf/1/additionalProperties")},
	{"compose/bad-phone", contactT, contact("contact", `{"kind":"phone","phone":"07700 900123"}`), bad("pattern", "/contact/phone")},
	{"compose/bad-email", contactT, contact("contact", `{"kind":"email","email":"not an address"}`), bad("format", "/contact/email")},
	{"compose/instructions-too-long", contactT, contact("instructions", str(strings.Repeat("x", 281))), bad("maxLength", "/instructions")},
	{"compose/instructions-absent", contactT, contact("instructions", omit), bad("required", "")},
	{"compose/instructions-number", contactT, contact("instructions", "1"), bad("type", "/instructions")},
}

func init() {
	behaviourCases = append(behaviourCases, composeCases...)
	codecs[contactT] = codecFor(generated.DecodeUpdateDeliveryContactArgs)
	validArgs[contactT] = contact()
}
