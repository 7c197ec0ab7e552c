package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// TestSectionsPerCore: a large file is cut into sectionsPerCore sections
// per core by default, however many cores there are, and the sections'
// Visitors still see every record once, in file order.
func TestSectionsPerCore(t *testing.T) {
	saved := parallelFrom
	parallelFrom = 0
	defer func() { parallelFrom = saved }()
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampleJSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	plain, err := OpenFileWith(path, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	cases := []struct {
		procs, sections, want int // want: sections made
	}{
		{1, 0, sectionsPerCore},
		{2, 0, 2 * sectionsPerCore},
		{3, 0, 3 * sectionsPerCore},
		{2, 5, 5},
		{1, 9, 9},
	}
	for _, tc := range cases {
		prev := runtime.GOMAXPROCS(tc.procs)
		made := 0
		df, err := OpenFileWith(path, tc.sections, func() Visitor {
			made++
			return &recorder{}
		})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatalf("GOMAXPROCS %d, %d sections: %v", tc.procs, tc.sections, err)
		}
		if made != tc.want || len(df.Visitors()) != tc.want {
			t.Errorf("GOMAXPROCS %d, %d sections: %d Visitors made, %d kept, want %d", tc.procs, tc.sections, made, len(df.Visitors()), tc.want)
		}
		var ids []string
		for _, v := range df.Visitors() {
			ids = append(ids, v.(*recorder).ids...)
		}
		var want []string
		for _, r := range plain.Records {
			want = append(want, r.ID)
		}
		if !reflect.DeepEqual(ids, want) || !reflect.DeepEqual(df.Records, plain.Records) {
			t.Errorf("GOMAXPROCS %d, %d sections: records differ from one section's", tc.procs, tc.sections)
		}
		df.Close()
	}
}
