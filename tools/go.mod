module github.com/codemodekit/kit/tools

go 1.26
