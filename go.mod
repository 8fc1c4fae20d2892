module github.com/afinspect/inspect

go 1.26
