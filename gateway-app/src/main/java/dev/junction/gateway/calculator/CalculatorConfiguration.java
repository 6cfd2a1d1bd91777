package dev.junction.gateway.calculator;

import io.grpc.ManagedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.client.GrpcChannelFactory;

/**
 * The gRPC channel to calculator-service, made by Spring gRPC's channel factory (which shuts
 * it down with the application), and its client.
 */
@Configuration(proxyBeanMethods = false)
public class CalculatorConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(CalculatorConfiguration.class);

	@Bean
	CalculatorChannel calculatorChannel(GrpcChannelFactory channels, CalculatorProperties properties) {
		ManagedChannel channel = channels.createChannel(CalculatorProperties.CHANNEL,
				CalculatorChannels.options(properties));
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

	/** The channel to calculator-service. */
	record CalculatorChannel(ManagedChannel channel) {
	}

}
