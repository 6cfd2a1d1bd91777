package dev.junction.messaging.apikey;

import dev.junction.messaging.web.ApiException;
import reactor.core.publisher.Mono;

import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.server.ServerWebExchange;

/** Supplies the authenticated {@link Caller} to handler methods that declare one. */
public class CallerArgumentResolver implements HandlerMethodArgumentResolver {

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == Caller.class;
	}

	@Override
	public Mono<Object> resolveArgument(MethodParameter parameter, BindingContext bindingContext,
			ServerWebExchange exchange) {
		Caller caller = exchange.getAttribute(Caller.ATTRIBUTE);
		return (caller != null) ? Mono.just(caller)
				: Mono.error(ApiException.unauthorized("Missing " + ApiKeyAuthenticationFilter.HEADER + " header"));
	}

}
