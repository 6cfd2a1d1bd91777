package dev.junction.calculator.calculation;

import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculationResult;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

import org.springframework.stereotype.Service;

/** The {@code calculator.v1.Calculator} gRPC service. */
@Service
public class CalculatorService extends CalculatorGrpc.CalculatorImplBase {

	@Override
	public void add(BinaryOperation request, StreamObserver<CalculationResult> responseObserver) {
		calculate(Operation.ADD, request, responseObserver);
	}

	@Override
	public void subtract(BinaryOperation request, StreamObserver<CalculationResult> responseObserver) {
		calculate(Operation.SUBTRACT, request, responseObserver);
	}

	@Override
	public void multiply(BinaryOperation request, StreamObserver<CalculationResult> responseObserver) {
		calculate(Operation.MULTIPLY, request, responseObserver);
	}

	@Override
	public void divide(BinaryOperation request, StreamObserver<CalculationResult> responseObserver) {
		calculate(Operation.DIVIDE, request, responseObserver);
	}

	@Override
	public StreamObserver<ComputeRequest> compute(StreamObserver<ComputeResponse> responseObserver) {
		return new ComputeStream((ServerCallStreamObserver<ComputeResponse>) responseObserver);
	}

	private static void calculate(Operation operation, BinaryOperation request,
			StreamObserver<CalculationResult> responseObserver) {
		double result;
		try {
			result = operation.apply(request.getA(), request.getB());
		}
		catch (CalculationException ex) {
			responseObserver.onError(ex.toStatus().asRuntimeException());
			return;
		}
		responseObserver.onNext(CalculationResult.newBuilder().setResult(result).build());
		responseObserver.onCompleted();
	}

}
