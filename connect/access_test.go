package connect

import (
	"testing"
)

func TestTools(t *testing.T) {
	public, err := New(Options{Origin: testOrigin}, newFakeSource(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer public.Close()
	tools := public.Tools()
	if len(tools) != 4 || tools[0].Name != toolAsk || tools[3].Name != toolSearch {
		t.Fatalf("tools = %+v", tools)
	}
	for _, ti := range tools {
		if !ti.ReadOnly || ti.RequiresToken || len(ti.Scopes) > 0 || ti.Description == "" {
			t.Errorf("public tool %+v", ti)
		}
	}

	protected, err := New(Options{Origin: testOrigin, Auth: &OAuth{
		Issuer: testIssuer, JWKSURL: "http://127.0.0.1:1/jwks", Audience: testAudience, ResourceMetadataURL: testPRM,
		Scopes: map[string][]string{"*": {"read"}, toolGet: {"pages", "read"}},
	}}, newFakeSource(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer protected.Close()
	for _, ti := range protected.Tools() {
		want := 1
		if ti.Name == toolGet {
			want = 2 // "read" once, plus "pages"
		}
		if !ti.RequiresToken || len(ti.Scopes) != want {
			t.Errorf("protected tool %+v", ti)
		}
	}
}
