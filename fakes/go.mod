module github.com/codemodekit/kit/fakes

go 1.26
