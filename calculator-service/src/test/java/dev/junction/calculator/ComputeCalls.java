package dev.junction.calculator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.Operator;
import io.grpc.stub.StreamObserver;

import static org.assertj.core.api.Assertions.assertThat;

/** Helpers for tests of the {@code Compute} stream. */
public final class ComputeCalls {

	private ComputeCalls() {
	}

	public static ComputeRequest request(String id, Operator operator, double a, double b) {
		return ComputeRequest.newBuilder().setId(id).setOperator(operator).setA(a).setB(b).build();
	}

	/** Collects a response stream and waits for its end. */
	public static final class Collector implements StreamObserver<ComputeResponse> {

		private final List<ComputeResponse> responses = new ArrayList<>();

		private final CountDownLatch done = new CountDownLatch(1);

		private volatile Throwable error;

		@Override
		public synchronized void onNext(ComputeResponse value) {
			this.responses.add(value);
		}

		@Override
		public void onError(Throwable t) {
			this.error = t;
			this.done.countDown();
		}

		@Override
		public void onCompleted() {
			this.done.countDown();
		}

		/** Waits for the stream to complete without error and returns every response. */
		public List<ComputeResponse> await() throws InterruptedException {
			assertThat(this.done.await(30, TimeUnit.SECONDS)).as("stream completed").isTrue();
			assertThat(this.error).as("stream error").isNull();
			synchronized (this) {
				return List.copyOf(this.responses);
			}
		}

	}

}
