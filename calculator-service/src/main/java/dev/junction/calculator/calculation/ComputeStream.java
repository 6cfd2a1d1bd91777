package dev.junction.calculator.calculation;

import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.OperationError;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * One {@code Compute} call: answers each operation in order, a bad one with an error
 * entry, and reads the next request only when the client can take another response, so a
 * fast sender facing a slow reader is held back by flow control instead of filling
 * memory.
 */
final class ComputeStream implements StreamObserver<ComputeRequest> {

	private final ServerCallStreamObserver<ComputeResponse> responses;

	/** Guarded by the call's serialised callbacks: whether a request is outstanding. */
	private boolean requested;

	ComputeStream(ServerCallStreamObserver<ComputeResponse> responses) {
		this.responses = responses;
		responses.disableAutoRequest();
		responses.setOnReadyHandler(this::requestIfReady);
		responses.request(1);
		this.requested = true;
	}

	@Override
	public void onNext(ComputeRequest request) {
		this.requested = false;
		this.responses.onNext(answer(request));
		requestIfReady();
	}

	@Override
	public void onError(Throwable error) {
		// The client cancelled or the transport failed: nothing is left to answer.
	}

	@Override
	public void onCompleted() {
		this.responses.onCompleted();
	}

	private void requestIfReady() {
		if (!this.requested && this.responses.isReady() && !this.responses.isCancelled()) {
			this.requested = true;
			this.responses.request(1);
		}
	}

	static ComputeResponse answer(ComputeRequest request) {
		ComputeResponse.Builder response = ComputeResponse.newBuilder().setId(request.getId());
		try {
			response.setResult(Operation.of(request.getOperator()).apply(request.getA(), request.getB()));
		}
		catch (CalculationException ex) {
			Status.Code code = ex.code();
			response.setError(OperationError.newBuilder()
				.setCode(code.value())
				.setStatus(code.name())
				.setMessage(ex.getMessage()));
		}
		return response.build();
	}

}
