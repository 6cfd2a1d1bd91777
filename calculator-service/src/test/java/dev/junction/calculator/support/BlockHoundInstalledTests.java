package dev.junction.calculator.support;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.GlobalServerInterceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The test run fails any blocking call on a non-blocking thread: this proves the check is
 * live, on Reactor's threads and on the event loops the gRPC server runs calls on.
 */
class BlockHoundInstalledTests {

	@Test
	void detectsBlockingOnANonBlockingThread() {
		Mono<String> sleeping = Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel());
		assertThatThrownBy(() -> sleeping.block(Duration.ofSeconds(5)))
			.satisfies((error) -> assertThat(Exceptions.unwrap(error)).isInstanceOf(BlockingOperationError.class));
	}

	@Test
	void detectsBlockingInACallOnTheServersEventLoop() throws InterruptedException {
		try (RunningCalculator server = RunningCalculator
			.startWith(new Class<?>[] { SleepingInterceptorConfiguration.class })) {
			double sum = CalculatorGrpc.newBlockingStub(server.plaintextChannel())
				.add(BinaryOperation.newBuilder().setA(1).setB(2).build())
				.getResult();
			assertThat(sum).isEqualTo(3);
			assertThat(server.context().getBean(SleepingInterceptor.class).failure.get())
				.isInstanceOf(BlockingOperationError.class);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class SleepingInterceptorConfiguration {

		@Bean
		@GlobalServerInterceptor
		SleepingInterceptor sleepingInterceptor() {
			return new SleepingInterceptor();
		}

	}

	/**
	 * Sleeps at the start of every call, where the server's executor runs it, and keeps
	 * what that threw.
	 */
	static class SleepingInterceptor implements ServerInterceptor {

		final AtomicReference<Throwable> failure = new AtomicReference<>();

		@Override
		public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
				ServerCallHandler<ReqT, RespT> next) {
			try {
				Thread.sleep(1);
			}
			catch (Throwable ex) {
				this.failure.set(ex);
			}
			return next.startCall(call, headers);
		}

	}

}
