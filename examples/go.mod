module github.com/toolgate/toolgate/examples

go 1.26.0

require github.com/toolgate/toolgate v0.0.0

replace github.com/toolgate/toolgate => ../
