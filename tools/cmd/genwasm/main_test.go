package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"testing"
)

func TestCheckIntegrityAndUntar(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	body := []byte("\x00asm")
	if err := tw.WriteHeader(&tar.Header{Name: "package/quickjs.wasm", Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	zw.Close()
	tgz := buf.Bytes()
	sum := sha512.Sum512(tgz)
	good := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if err := checkIntegrity(tgz, good); err != nil {
		t.Errorf("checkIntegrity(good) = %v", err)
	}
	for _, bad := range []string{"sha1-abc", "sha512-" + base64.StdEncoding.EncodeToString(make([]byte, 64)), "nohyphen"} {
		if checkIntegrity(tgz, bad) == nil {
			t.Errorf("checkIntegrity accepts %q", bad)
		}
	}
	got, err := untar(tgz, "package/quickjs.wasm")
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("untar = %q, %v; want %q", got, err, body)
	}
	if _, err := untar(tgz, "package/other"); err == nil {
		t.Error("untar of a missing file succeeds")
	}
}
