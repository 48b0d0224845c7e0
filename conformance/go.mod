module github.com/codemodekit/kit/conformance

go 1.26
