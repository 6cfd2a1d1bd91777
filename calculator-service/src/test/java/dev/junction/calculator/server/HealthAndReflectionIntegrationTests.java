package dev.junction.calculator.server;

import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.junction.calculator.ComputeCalls;
import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.Operator;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class HealthAndReflectionIntegrationTests {

	@Test
	void reportsServingForTheCalculatorAndTheServer() throws Exception {
		try (RunningCalculator server = RunningCalculator.start()) {
			HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(server.plaintextChannel());
			assertThat(health.check(service("calculator.v1.Calculator")).getStatus()).isEqualTo(ServingStatus.SERVING);
			assertThat(health.check(service("")).getStatus()).isEqualTo(ServingStatus.SERVING);
			assertThatExceptionOfType(StatusRuntimeException.class)
				.isThrownBy(() -> health.check(service("no.such.Service")))
				.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
		}
	}

	@Test
	void listsServicesThroughReflectionV1() throws Exception {
		try (RunningCalculator server = RunningCalculator.start()) {
			LinkedBlockingQueue<ServerReflectionResponse> responses = new LinkedBlockingQueue<>();
			StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(server.plaintextChannel())
				.serverReflectionInfo(new QueueObserver<>(responses));
			requests.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build());
			ServerReflectionResponse listing = responses.poll(10, TimeUnit.SECONDS);
			requests.onNext(
					ServerReflectionRequest.newBuilder().setFileContainingSymbol("calculator.v1.Calculator").build());
			ServerReflectionResponse file = responses.poll(10, TimeUnit.SECONDS);
			requests.onCompleted();
			assertThat(listing).isNotNull();
			assertThat(listing.getListServicesResponse().getServiceList()).extracting(ServiceResponse::getName)
				.contains("calculator.v1.Calculator", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
						"grpc.reflection.v1alpha.ServerReflection");
			assertThat(file).isNotNull();
			assertThat(file.getFileDescriptorResponse().getFileDescriptorProtoCount()).isPositive();
		}
	}

	@Test
	void turnsNotServingAtShutdownAndLetsInFlightCallsFinish() throws Exception {
		RunningCalculator server = RunningCalculator.start();
		ManagedChannel channel = server.plaintextChannel();
		Iterator<HealthCheckResponse> watch = HealthGrpc.newBlockingStub(channel)
			.watch(service("calculator.v1.Calculator"));
		assertThat(watch.next().getStatus()).isEqualTo(ServingStatus.SERVING);

		LinkedBlockingQueue<ComputeResponse> results = new LinkedBlockingQueue<>();
		CompletableFuture<Void> streamDone = new CompletableFuture<>();
		StreamObserver<ComputeRequest> inFlight = CalculatorGrpc.newStub(channel)
			.compute(new QueueObserver<>(results, streamDone));
		inFlight.onNext(ComputeCalls.request("before", Operator.OPERATOR_ADD, 1, 1));
		assertThat(results.poll(10, TimeUnit.SECONDS)).isNotNull();

		CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> server.context().close());
		assertThat(watch.next().getStatus()).isEqualTo(ServingStatus.NOT_SERVING);

		inFlight.onNext(ComputeCalls.request("during", Operator.OPERATOR_MULTIPLY, 3, 4));
		ComputeResponse during = results.poll(10, TimeUnit.SECONDS);
		assertThat(during).isNotNull();
		assertThat(during.getId()).isEqualTo("during");
		assertThat(during.getResult()).isEqualTo(12);
		inFlight.onCompleted();
		streamDone.get(10, TimeUnit.SECONDS);

		channel.shutdownNow();
		closing.get(30, TimeUnit.SECONDS);
		assertThat(server.context().isActive()).isFalse();
	}

	private static HealthCheckRequest service(String name) {
		return HealthCheckRequest.newBuilder().setService(name).build();
	}

	/** Puts every message of a stream on a queue. */
	static final class QueueObserver<T> implements ClientResponseObserver<Object, T> {

		private final LinkedBlockingQueue<T> queue;

		private final CompletableFuture<Void> done;

		QueueObserver(LinkedBlockingQueue<T> queue) {
			this(queue, new CompletableFuture<>());
		}

		QueueObserver(LinkedBlockingQueue<T> queue, CompletableFuture<Void> done) {
			this.queue = queue;
			this.done = done;
		}

		@Override
		public void beforeStart(ClientCallStreamObserver<Object> requestStream) {
		}

		@Override
		public void onNext(T value) {
			this.queue.add(value);
		}

		@Override
		public void onError(Throwable t) {
			this.done.completeExceptionally(t);
		}

		@Override
		public void onCompleted() {
			this.done.complete(null);
		}

	}

}
