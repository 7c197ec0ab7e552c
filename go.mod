module github.com/ucpgen/ucpgen

go 1.25.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/dlclark/regexp2 v1.12.0
	github.com/dunglas/httpsfv v1.1.2
	github.com/google/jsonschema-go v0.4.3
	github.com/jackc/pgx/v5 v5.13.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/pb33f/libopenapi v0.37.2
	github.com/prometheus/client_golang v1.24.1 // runtime/ops is the library package that needs it; pinned: v1.25.0 declares go 1.26.0 and this module promises go 1.25.0 (ops TestDependenciesKeepGo125)
	github.com/prometheus/client_model v0.6.2 // for runtime/ops
	github.com/prometheus/common v0.70.1 // for runtime/ops; pinned: v0.72.0 declares go 1.26.0 and this module promises go 1.25.0 (ops TestDependenciesKeepGo125)
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/cobra v1.10.2
	golang.org/x/sync v0.22.0
	golang.org/x/text v0.41.0
)

require (
	github.com/pb33f/libopenapi-validator v0.13.8
	github.com/spf13/pflag v1.0.9
	golang.org/x/time v0.15.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/go-openapi/jsonpointer v0.23.1 // indirect
	github.com/go-openapi/swag/jsonname v0.26.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/pb33f/jsonpath v0.8.2 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	github.com/prometheus/procfs v0.21.1 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.4 // indirect
	golang.org/x/oauth2 v0.36.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
)
