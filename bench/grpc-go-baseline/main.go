// Command grpc-go-baseline is a bare grpc-go server for calculator.v1.Calculator/Add,
// Subtract, Multiply and Divide, used as a baseline by bench/calculator.sh. It decodes and
// encodes the two-double messages with protowire directly, so it needs no generated code.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

// rawCodec passes message bytes through; handlers parse them with protowire.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

var _ encoding.Codec = rawCodec{}

func operands(b []byte) (a, c float64, err error) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, 0, protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.Fixed64Type {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return 0, 0, protowire.ParseError(m)
			}
			b = b[m:]
			continue
		}
		v, m := protowire.ConsumeFixed64(b)
		if m < 0 {
			return 0, 0, protowire.ParseError(m)
		}
		b = b[m:]
		switch num {
		case 1:
			a = math.Float64frombits(v)
		case 2:
			c = math.Float64frombits(v)
		}
	}
	return a, c, nil
}

func handler(op func(a, b float64) (float64, error)) grpc.MethodHandler {
	return func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		var in []byte
		if err := dec(&in); err != nil {
			return nil, err
		}
		a, b, err := operands(in)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		r, err := op(a, b)
		if err != nil {
			return nil, err
		}
		out := protowire.AppendTag(nil, 1, protowire.Fixed64Type)
		out = protowire.AppendFixed64(out, math.Float64bits(r))
		return &out, nil
	}
}

func main() {
	port := flag.Int("port", 50054, "port to listen on")
	flag.Parse()
	desc := grpc.ServiceDesc{
		ServiceName: "calculator.v1.Calculator",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			{MethodName: "Add", Handler: handler(func(a, b float64) (float64, error) { return a + b, nil })},
			{MethodName: "Subtract", Handler: handler(func(a, b float64) (float64, error) { return a - b, nil })},
			{MethodName: "Multiply", Handler: handler(func(a, b float64) (float64, error) { return a * b, nil })},
			{MethodName: "Divide", Handler: handler(func(a, b float64) (float64, error) {
				if b == 0 {
					return 0, status.Error(codes.InvalidArgument, "division by zero")
				}
				return a / b, nil
			})},
		},
	}
	lis, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatal(err)
	}
	server := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}))
	server.RegisterService(&desc, struct{}{})
	log.Printf("bare grpc-go calculator listening on %s", lis.Addr())
	log.Fatal(server.Serve(lis))
}
