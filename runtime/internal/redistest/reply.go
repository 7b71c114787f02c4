package redistest

// ErrorReply is an error reply of Redis's as go-redis gives it: an error
// with a RedisError method (it satisfies redis.Error).
type ErrorReply string

func (e ErrorReply) Error() string { return string(e) }

// RedisError marks e as Redis's answer, not the client's or the
// connection's error.
func (ErrorReply) RedisError() {}
