package dev.junction.gateway.calculator;

import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The gRPC channel to calculator-service and its client. */
@Configuration(proxyBeanMethods = false)
public class CalculatorConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(CalculatorConfiguration.class);

	@Bean
	CalculatorChannel calculatorChannel(CalculatorProperties properties) {
		ManagedChannel channel = CalculatorChannels.create(properties);
		CalculatorChannels.keepConnected(channel);
		return new CalculatorChannel(channel);
	}

	/** The client, with a first health check sent at once: the first real call finds everything loaded and connected. */
	@Bean
	CalculatorClient calculatorClient(CalculatorChannel channel, CalculatorProperties properties) {
		CalculatorClient client = new CalculatorClient(channel.channel(), properties);
		client.warmUp().subscribe((status) -> {
			if (CalculatorClient.isServing(status)) {
				logger.info("calculator-service at {} is serving", properties.address());
			}
			else {
				logger.warn("calculator-service at {} is not serving yet ({}): calls will reach it once it is",
						properties.address(), status);
			}
		});
		return client;
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
