package dev.junction.calculator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/** The real application on random gRPC and HTTP ports, as {@code java -jar} runs it. */
public final class RunningCalculator implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final List<ManagedChannel> channels = new ArrayList<>();

	private RunningCalculator(ConfigurableApplicationContext context) {
		this.context = context;
	}

	public static RunningCalculator start(String... properties) {
		return startWith(new Class<?>[0], properties);
	}

	/** The application with further configuration classes (test beans) beside its own. */
	public static RunningCalculator startWith(Class<?>[] configurations, String... properties) {
		List<String> args = new ArrayList<>(List.of("--spring.grpc.server.port=0", "--server.port=0",
				"--spring.grpc.server.shutdown.grace-period=5s"));
		for (String property : properties) {
			args.add("--" + property);
		}
		return new RunningCalculator(new SpringApplicationBuilder(CalculatorApplication.class).sources(configurations)
			.run(args.toArray(String[]::new)));
	}

	public ConfigurableApplicationContext context() {
		return this.context;
	}

	public int grpcPort() {
		return this.context.getBean(GrpcServerLifecycle.class).getPort();
	}

	public int httpPort() {
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	/** A plaintext channel to the gRPC port, shut down with this server. */
	public ManagedChannel plaintextChannel() {
		return register(NettyChannelBuilder.forAddress("127.0.0.1", grpcPort()).usePlaintext().build());
	}

	public ManagedChannel register(ManagedChannel channel) {
		this.channels.add(channel);
		return channel;
	}

	@Override
	public void close() throws InterruptedException {
		for (ManagedChannel channel : this.channels) {
			channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
		}
		this.context.close();
	}

}
