package dev.junction.gateway.rpc;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.reactive.function.server.EntityResponse;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.ForwardedHeaderTransformer;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.server.i18n.LocaleContextResolver;
import org.springframework.web.util.UriUtils;

/**
 * {@code POST /rpc} and {@code GET} or {@code POST /trpc/{path}}, served by the
 * application's own filters, exception handlers and request observation, but without
 * WebFlux's dispatch: the handler is known from the path, so no handler mapping is asked.
 * Any other request to these paths (another method, a path under {@code /trpc/} with more
 * segments) goes the whole way, as does everything else.
 */
public final class RpcEndpoints implements HttpHandler {

	static final String JSON_RPC = "/rpc";

	static final String TRPC = "/trpc/";

	private static final String TRPC_PATTERN = "/trpc/{path}";

	private final HttpHandler delegate;

	private final HttpHandler direct;

	private RpcEndpoints(HttpHandler delegate, HttpHandler direct) {
		this.delegate = delegate;
		this.direct = direct;
	}

	/**
	 * The decorator that serves the RPC endpoints with the filters, exception handlers,
	 * codecs and observation registry of {@code context}.
	 */
	public static HttpHandlerDecoratorFactory decorator(ApplicationContext context, JsonRpcHandler jsonRpc,
			TrpcHandler trpc) {
		ServerCodecConfigurer codecs = context.getBean(ServerCodecConfigurer.class);
		return (delegate) -> new RpcEndpoints(delegate, direct(context, codecs, new Endpoints(jsonRpc, trpc, codecs)));
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		return (route(request) != null) ? this.direct.handle(request, response)
				: this.delegate.handle(request, response);
	}

	/** The pattern of the RPC endpoint {@code request} is for, or null. */
	static @Nullable String route(ServerHttpRequest request) {
		return route(request.getMethod(), request.getPath().value());
	}

	private static @Nullable String route(HttpMethod method, String path) {
		if (method == HttpMethod.POST && JSON_RPC.equals(path)) {
			return JSON_RPC;
		}
		if ((method == HttpMethod.GET || method == HttpMethod.POST) && path.startsWith(TRPC)
				&& path.length() > TRPC.length() && path.indexOf('/', TRPC.length()) < 0) {
			return TRPC_PATTERN;
		}
		return null;
	}

	/**
	 * The application's filter chain, exception handlers and exchange settings in front
	 * of {@code handler}, as {@link WebHttpHandlerBuilder#applicationContext} puts them
	 * in front of WebFlux's dispatch (without the decorators, this among them).
	 */
	private static HttpHandler direct(ApplicationContext context, ServerCodecConfigurer codecs, WebHandler handler) {
		WebHttpHandlerBuilder builder = WebHttpHandlerBuilder.webHandler(handler);
		List<WebFilter> filters = context.getBeanProvider(WebFilter.class).orderedStream().toList();
		builder.filters((chain) -> chain.addAll(filters));
		List<WebExceptionHandler> handlers = context.getBeanProvider(WebExceptionHandler.class)
			.orderedStream()
			.toList();
		builder.exceptionHandlers((chain) -> chain.addAll(handlers));
		context.getBeanProvider(ObservationRegistry.class).ifUnique(builder::observationRegistry);
		context.getBeanProvider(ServerRequestObservationConvention.class).ifAvailable(builder::observationConvention);
		builder.codecConfigurer(codecs);
		try {
			builder.localeContextResolver(context.getBean(WebHttpHandlerBuilder.LOCALE_CONTEXT_RESOLVER_BEAN_NAME,
					LocaleContextResolver.class));
		}
		catch (NoSuchBeanDefinitionException ex) {
			// the default
		}
		context.getBeanProvider(ForwardedHeaderTransformer.class).ifUnique(builder::forwardedHeaderTransformer);
		return builder.build();
	}

	/** Calls the JSON-RPC or tRPC handler the path names and writes its answer. */
	private static final class Endpoints implements WebHandler, ServerResponse.Context {

		private final JsonRpcHandler jsonRpc;

		private final TrpcHandler trpc;

		private final List<HttpMessageReader<?>> readers;

		private final List<HttpMessageWriter<?>> writers;

		Endpoints(JsonRpcHandler jsonRpc, TrpcHandler trpc, ServerCodecConfigurer codecs) {
			this.jsonRpc = jsonRpc;
			this.trpc = trpc;
			this.readers = codecs.getReaders();
			this.writers = codecs.getWriters();
		}

		@Override
		public Mono<Void> handle(ServerWebExchange exchange) {
			// Within the application: a forwarded prefix may have been set in front.
			String path = exchange.getRequest().getPath().pathWithinApplication().value();
			String pattern = route(exchange.getRequest().getMethod(), path);
			if (pattern == null) {
				return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
			}
			ServerRequestObservationContext.findCurrent(exchange.getAttributes())
				.ifPresent((observation) -> observation.setPathPattern(pattern));
			Mono<ServerResponse> response;
			if (JSON_RPC.equals(pattern)) {
				response = this.jsonRpc.handle(ServerRequest.create(exchange, this.readers));
			}
			else {
				exchange.getAttributes()
					.put(RouterFunctions.URI_TEMPLATE_VARIABLES_ATTRIBUTE,
							Map.of("path", UriUtils.decode(path.substring(TRPC.length()), StandardCharsets.UTF_8)));
				response = this.trpc.handle(ServerRequest.create(exchange, this.readers));
			}
			return response.flatMap((answer) -> write(answer, exchange));
		}

		/**
		 * Writes {@code answer}: one whose body is bytes of a given content type (every
		 * JSON-RPC and tRPC answer with a body) directly, as the byte array writer would,
		 * without looking for a writer; anything else through the message writers.
		 */
		private Mono<Void> write(ServerResponse answer, ServerWebExchange exchange) {
			if (!(answer instanceof EntityResponse<?> entity) || !(entity.entity() instanceof byte[] bytes)
					|| !answer.headers().containsHeader(HttpHeaders.CONTENT_TYPE) || !entity.cookies().isEmpty()) {
				return answer.writeTo(exchange, this);
			}
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(answer.statusCode());
			HttpHeaders headers = response.getHeaders();
			answer.headers().forEach(headers::put);
			headers.setContentLength(bytes.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
		}

		@Override
		public List<HttpMessageWriter<?>> messageWriters() {
			return this.writers;
		}

		@Override
		public List<ViewResolver> viewResolvers() {
			return List.of();
		}

	}

}
