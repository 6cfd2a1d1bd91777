package dev.junction.gateway.calculator;

import io.grpc.ManagedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.grpc.client.GrpcChannelFactory;

/**
 * The gRPC channel to calculator-service, made by Spring gRPC's channel factory (which
 * shuts it down with the application), and its client. Both are made at start-up when
 * {@code junction.gateway.calculator.address} is set, else at the first call that needs
 * them, so that a gateway that never calls the calculator loads no gRPC at all.
 */
@Configuration(proxyBeanMethods = false)
public class CalculatorConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(CalculatorConfiguration.class);

	@Bean
	@Lazy
	CalculatorChannel calculatorChannel(GrpcChannelFactory channels, CalculatorProperties properties) {
		ManagedChannel channel = channels.createChannel(CalculatorProperties.CHANNEL,
				CalculatorChannels.options(properties));
		CalculatorChannels.keepConnected(channel);
		return new CalculatorChannel(channel);
	}

	@Bean
	@Lazy
	CalculatorClient calculatorClient(CalculatorChannel channel, CalculatorProperties properties) {
		return new CalculatorClient(channel.channel(), properties);
	}

	/**
	 * With an address configured, the client at start-up and a first health check sent at
	 * once: the first real call finds everything loaded and connected.
	 */
	@Bean
	@ConditionalOnProperty(prefix = CalculatorProperties.PREFIX, name = "address")
	SmartInitializingSingleton calculatorWarmUp(ObjectProvider<CalculatorClient> calculator,
			CalculatorProperties properties) {
		return () -> calculator.getObject().warmUp().subscribe((status) -> {
			if (CalculatorClient.isServing(status)) {
				logger.info("calculator-service at {} is serving", properties.address());
			}
			else {
				logger.warn("calculator-service at {} is not serving yet ({}): calls will reach it once it is",
						properties.address(), status);
			}
		});
	}

	/** The channel to calculator-service. */
	record CalculatorChannel(ManagedChannel channel) {
	}

}
