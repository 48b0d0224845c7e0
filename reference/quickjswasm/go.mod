module github.com/codemodekit/kit/reference/quickjswasm

go 1.26.0
