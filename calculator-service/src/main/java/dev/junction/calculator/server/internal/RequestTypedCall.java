package dev.junction.calculator.server.internal;

import java.io.InputStream;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A call whose requests arrive unparsed, seen by the service as the call of its own
 * method: everything is passed through, only the method descriptor is the original one.
 */
final class RequestTypedCall<ReqT, RespT> extends ServerCall<ReqT, RespT> {

	private final ServerCall<InputStream, RespT> call;

	private final MethodDescriptor<ReqT, RespT> method;

	RequestTypedCall(ServerCall<InputStream, RespT> call, MethodDescriptor<ReqT, RespT> method) {
		this.call = call;
		this.method = method;
	}

	@Override
	public void request(int numMessages) {
		this.call.request(numMessages);
	}

	@Override
	public void sendHeaders(Metadata headers) {
		this.call.sendHeaders(headers);
	}

	@Override
	public void sendMessage(RespT message) {
		this.call.sendMessage(message);
	}

	@Override
	public boolean isReady() {
		return this.call.isReady();
	}

	@Override
	public void close(Status status, Metadata trailers) {
		this.call.close(status, trailers);
	}

	@Override
	public boolean isCancelled() {
		return this.call.isCancelled();
	}

	@Override
	public void setMessageCompression(boolean enabled) {
		this.call.setMessageCompression(enabled);
	}

	@Override
	public void setCompression(String compressor) {
		this.call.setCompression(compressor);
	}

	@Override
	public void setOnReadyThreshold(int numBytes) {
		this.call.setOnReadyThreshold(numBytes);
	}

	@Override
	public SecurityLevel getSecurityLevel() {
		return this.call.getSecurityLevel();
	}

	@Override
	public Attributes getAttributes() {
		return this.call.getAttributes();
	}

	@Override
	public String getAuthority() {
		return this.call.getAuthority();
	}

	@Override
	public MethodDescriptor<ReqT, RespT> getMethodDescriptor() {
		return this.method;
	}

}
