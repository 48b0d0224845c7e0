module github.com/codemodekit/kit/features

go 1.26
