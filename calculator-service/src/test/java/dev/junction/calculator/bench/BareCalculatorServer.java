package dev.junction.calculator.bench;

import dev.junction.calculator.calculation.CalculatorService;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;

/**
 * The benchmark baseline: the same Calculator implementation on a bare grpc-java Netty
 * server with a direct executor, and nothing else (no Spring, auth, metrics, health or
 * reflection). {@code bench/calculator.sh} runs it beside calculator-service.
 */
public final class BareCalculatorServer {

	private BareCalculatorServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = (args.length > 0) ? Integer.parseInt(args[0]) : 50052;
		Server server = NettyServerBuilder.forPort(port)
			.directExecutor()
			.addService(new CalculatorService())
			.build()
			.start();
		System.out.println("bare grpc-java calculator listening on " + server.getPort());
		Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
		server.awaitTermination();
	}

}
