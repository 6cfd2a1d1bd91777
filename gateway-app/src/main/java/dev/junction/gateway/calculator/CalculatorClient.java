package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculationResult;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.gateway.tracing.RequestTracing;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * calculator-service's unary operations and health check as {@link Mono}s, on grpc-java
 * future stubs with a deadline per call. Nothing blocks: results arrive on gRPC's
 * callback, and cancelling the {@code Mono} cancels the call.
 */
public final class CalculatorClient {

	/** A binary operation of the calculator. */
	public enum Operation {

		ADD, SUBTRACT, MULTIPLY, DIVIDE

	}

	/** What {@link #health()} reports while the channel is still connecting. */
	public static final String CONNECTING = "CONNECTING";

	private final ManagedChannel channel;

	private final CalculatorGrpc.CalculatorFutureStub calculator;

	private final HealthGrpc.HealthFutureStub health;

	private final String address;

	private final Duration deadline;

	private final Duration healthDeadline;

	private final Mono<String> cachedHealth;

	public CalculatorClient(ManagedChannel channel, CalculatorProperties properties) {
		this.channel = channel;
		this.calculator = CalculatorGrpc.newFutureStub(channel).withInterceptors(new RequestIdInterceptor());
		this.health = HealthGrpc.newFutureStub(channel);
		this.address = properties.address();
		this.deadline = properties.deadline();
		this.healthDeadline = properties.healthDeadline();
		Duration ttl = properties.healthCacheTtl();
		this.cachedHealth = health().cache((status) -> ttl, (error) -> Duration.ZERO, () -> Duration.ZERO);
	}

	/** The address calls go to, as configured. */
	public String address() {
		return this.address;
	}

	/** {@code a <operation> b}; fails with {@link CalculatorException}. */
	public Mono<Double> calculate(Operation operation, double a, double b) {
		return calculate(operation, a, b, null);
	}

	/**
	 * {@code a <operation> b}, sending {@code requestId} (if any) as {@code x-request-id}
	 * metadata; fails with {@link CalculatorException}.
	 */
	public Mono<Double> calculate(Operation operation, double a, double b, @Nullable String requestId) {
		BinaryOperation request = BinaryOperation.newBuilder().setA(a).setB(b).build();
		return call(() -> {
			CalculatorGrpc.CalculatorFutureStub stub = this.calculator.withDeadlineAfter(this.deadline.toNanos(),
					TimeUnit.NANOSECONDS);
			if (requestId != null) {
				stub = stub.withOption(RequestIdInterceptor.OPTION, requestId);
			}
			return switch (operation) {
				case ADD -> stub.add(request);
				case SUBTRACT -> stub.subtract(request);
				case MULTIPLY -> stub.multiply(request);
				case DIVIDE -> stub.divide(request);
			};
		}).map(CalculationResult::getResult);
	}

	/**
	 * The server's overall serving status from the standard health service
	 * ({@code SERVING}, {@code NOT_SERVING}, ...), or {@code UNAVAILABLE} /
	 * {@code DEADLINE_EXCEEDED} / another gRPC code name when the check itself failed, or
	 * {@code CONNECTING} when it ran out of time while the channel was still making its
	 * connection. Never fails.
	 */
	public Mono<String> health() {
		return check(this.healthDeadline, false);
	}

	/**
	 * A first health check that waits for the connection (up to a calculation's
	 * deadline): it loads and connects everything the first real call needs. Never fails.
	 */
	public Mono<String> warmUp() {
		return check(this.deadline, true);
	}

	private Mono<String> check(Duration deadline, boolean waitForReady) {
		return call(() -> {
			HealthGrpc.HealthFutureStub stub = this.health.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
			return (waitForReady ? stub.withWaitForReady() : stub).check(HealthCheckRequest.getDefaultInstance());
		}).map((response) -> response.getStatus().name())
			.onErrorResume(CalculatorException.class,
					(error) -> Mono.just((error.code() == Status.Code.DEADLINE_EXCEEDED && connecting()) ? CONNECTING
							: error.code().name()));
	}

	private boolean connecting() {
		return this.channel.getState(false) == ConnectivityState.CONNECTING;
	}

	/**
	 * {@link #health()}, reused for a short while so that frequent health requests cost
	 * no call each.
	 */
	public Mono<String> cachedHealth() {
		return this.cachedHealth;
	}

	private <T> Mono<T> call(Supplier<ListenableFuture<T>> call) {
		return Mono.create((sink) -> {
			ListenableFuture<T> future = startIn(RequestTracing.observation(sink.contextView()), call);
			sink.onCancel(() -> future.cancel(false));
			Futures.addCallback(future, new FutureCallback<T>() {

				@Override
				public void onSuccess(T result) {
					sink.success(result);
				}

				@Override
				public void onFailure(Throwable failure) {
					sink.error(CalculatorException.of(Status.fromThrowable(failure), CalculatorClient.this.address));
				}

			}, MoreExecutors.directExecutor());
		});
	}

	/**
	 * Starts {@code call} in the scope of the request's {@code observation}, if any, so
	 * that the channel's observation continues the request's trace and sends it as
	 * {@code traceparent}.
	 */
	private static <T> ListenableFuture<T> startIn(@Nullable Observation observation,
			Supplier<ListenableFuture<T>> call) {
		if (observation == null) {
			return call.get();
		}
		try (Observation.Scope scope = observation.openScope()) {
			return call.get();
		}
	}

	static boolean isServing(String status) {
		return HealthCheckResponse.ServingStatus.SERVING.name().equals(status);
	}

}
