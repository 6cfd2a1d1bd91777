package dev.junction.calculator.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;

import com.google.common.util.concurrent.MoreExecutors;

import org.springframework.boot.grpc.server.autoconfigure.GrpcServerExecutorProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The executor that runs gRPC handlers.
 *
 * grpc-java's default is an unbounded cached thread pool, which hands every call to
 * another thread and grows without limit under load. Every handler here (arithmetic,
 * health, reflection, token checks against an in-memory cache and CPU-only signature
 * checks, metrics) finishes without blocking, so by default calls run directly on the
 * Netty event loop that decoded them: no hand-off, no context switch, which is
 * grpc-java's own advice for non-blocking services. {@code pool} keeps a fixed
 * work-stealing pool for deployments that add handlers which may block.
 */
@Configuration(proxyBeanMethods = false)
public class ServerExecutorConfiguration {

	@Bean
	GrpcServerExecutorProvider grpcServerExecutorProvider(ExecutorProperties properties) {
		if (properties.type() == ExecutorProperties.Type.DIRECT) {
			return MoreExecutors::directExecutor;
		}
		int threads = (properties.threads() > 0) ? properties.threads() : Runtime.getRuntime().availableProcessors();
		ExecutorService pool = new ForkJoinPool(threads, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
		return () -> pool;
	}

}
