package dev.junction.gateway.calculator;

import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The gRPC channel to calculator-service and its client. */
@Configuration(proxyBeanMethods = false)
public class CalculatorConfiguration {

	@Bean
	CalculatorChannel calculatorChannel(CalculatorProperties properties) {
		return new CalculatorChannel(CalculatorChannels.create(properties));
	}

	@Bean
	CalculatorClient calculatorClient(CalculatorChannel channel, CalculatorProperties properties) {
		return new CalculatorClient(channel.channel(), properties);
	}

	/** Holds the channel so that it is shut down with the application. */
	record CalculatorChannel(ManagedChannel channel) implements DisposableBean {

		@Override
		public void destroy() throws InterruptedException {
			this.channel.shutdown();
			if (!this.channel.awaitTermination(5, TimeUnit.SECONDS)) {
				this.channel.shutdownNow();
			}
		}

	}

}
