package clinc150_test

import (
	"fmt"

	"github.com/greedytl/greedytl/clinc150"
)

func ExampleLoad() {
	f, err := clinc150.Load(clinc150.Options{Dim: 256, PerClass: 20, OOS: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, c := f.X.Dims()
	fmt.Println(r, "queries ×", c, "features,", len(f.Classes), "classes")
	fmt.Println("class 0:", f.Classes[0], "in group", f.Groups[0])
	fmt.Println("class 150:", f.Classes[150], "in group", f.Groups[150])
	// Output:
	// 3100 queries × 256 features, 151 classes
	// class 0: accept_reservations in group kitchen_and_dining
	// class 150: oos in group oos
}

func ExampleRaw() {
	queries, domains, err := clinc150.Raw()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(queries), "queries,", len(domains), "domains")
	fmt.Printf("%+v\n", queries[0])
	// Output:
	// 23700 queries, 10 domains
	// {Text:what expression would i use to say i love you if i were an italian Intent:translate Split:train}
}
