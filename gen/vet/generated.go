package vet

import "golang.org/x/tools/go/analysis"

func checkGenerated(pass *analysis.Pass) error { return nil }
