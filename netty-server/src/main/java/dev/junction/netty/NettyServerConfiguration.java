package dev.junction.netty;

import reactor.netty.NettyPipeline;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;

/**
 * Event loops and connection pools owned by this application rather than Reactor Netty's
 * process-wide ones, so that shutting this application down never takes down another one
 * running in the same JVM (and the other way round); every response written on its own
 * connection's event loop ({@link OwnEventLoopResponses}); a read timeout on request
 * bodies ({@link BodyReadTimeout}) and a {@link RequestGuard} on every connection, with
 * the application's {@link HttpServerLimits} and {@link RejectedRequests} when it
 * declares them; keep-alive connections read again after every response
 * ({@link ReadAfterResponse}); the listening socket's backlog accepted at every turn of
 * the event loop ({@link AcceptBacklog}).
 */
@Configuration(proxyBeanMethods = false)
public class NettyServerConfiguration {

	private static final ReadAfterResponse READ_AFTER_RESPONSE = new ReadAfterResponse();

	@Bean
	ReactorResourceFactory reactorResourceFactory() {
		ReactorResourceFactory factory = new ReactorResourceFactory();
		factory.setUseGlobalResources(false);
		return factory;
	}

	@Bean
	HttpHandlerDecoratorFactory ownEventLoopResponses() {
		return OwnEventLoopResponses.decorator();
	}

	@Bean
	HttpHandlerDecoratorFactory bodyReadTimeout(ObjectProvider<HttpServerLimits> limits) {
		return BodyReadTimeout.decorator(limits.getIfAvailable(() -> HttpServerLimits.DEFAULTS).readTimeout());
	}

	@Bean
	NettyServerCustomizer acceptBacklog() {
		return AcceptBacklog.customizer();
	}

	@Bean
	NettyServerCustomizer requestGuard(ObjectProvider<HttpServerLimits> limits,
			ObjectProvider<RejectedRequests> rejections) {
		HttpServerLimits effective = limits.getIfAvailable(() -> HttpServerLimits.DEFAULTS);
		RejectedRequests answers = rejections.getIfAvailable(RejectedRequests::problemJson);
		return (server) -> server.doOnChannelInit((observer, channel, remote) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				RequestLineStart lineStart = new RequestLineStart();
				channel.pipeline().addBefore(NettyPipeline.HttpCodec, RequestLineStart.NAME, lineStart);
				channel.pipeline()
					.addAfter(NettyPipeline.HttpCodec, RequestGuard.NAME,
							new RequestGuard(effective, answers, lineStart));
			}
			if (channel.pipeline().get(NettyPipeline.HttpTrafficHandler) != null) {
				channel.pipeline()
					.addAfter(NettyPipeline.HttpTrafficHandler, ReadAfterResponse.NAME, READ_AFTER_RESPONSE);
			}
		});
	}

}
