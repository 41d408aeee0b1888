using System;
using System.Collections.Generic;
using System.Text.Json;

namespace StoreSuppliers;

/// <summary>Base of every exception this client throws (a cancellation by the caller stays an OperationCanceledException).</summary>
public class StoreException : Exception
{
    /// <summary>An exception with a message.</summary>
    public StoreException(string message, Exception? innerException = null) : base(message, innerException) { }
}

/// <summary>One entry of an error's details, such as a field that failed validation.</summary>
public sealed class StoreErrorDetail
{
    internal StoreErrorDetail(string? field, string message, JsonElement raw)
    {
        Field = field;
        Message = message;
        Raw = raw;
    }

    /// <summary>The field it names, if any.</summary>
    public string? Field { get; }

    /// <summary>What is wrong with it.</summary>
    public string Message { get; }

    /// <summary>The entry as the service sent it.</summary>
    public JsonElement Raw { get; }
}

/// <summary>A refusal answered by the service: the HTTP status, a stable code, a sentence, details and the request id.</summary>
public class StoreApiException : StoreException
{
    /// <summary>A refusal; <see cref="StoreApiException"/>'s subclasses name the common statuses.</summary>
    public StoreApiException(int statusCode, string code, string message, IReadOnlyList<StoreErrorDetail>? details = null, string? requestId = null, TimeSpan? retryAfter = null)
        : base(message)
    {
        StatusCode = statusCode;
        Code = code;
        Details = details ?? Array.Empty<StoreErrorDetail>();
        RequestId = requestId;
        RetryAfter = retryAfter;
    }

    /// <summary>The HTTP status.</summary>
    public int StatusCode { get; }

    /// <summary>The service's stable error code, such as <c>validationFailed</c> or <c>notFound</c>.</summary>
    public string Code { get; }

    /// <summary>What the service said about the refusal, field by field where it applies.</summary>
    public IReadOnlyList<StoreErrorDetail> Details { get; }

    /// <summary>The request id, to quote to the service's operator.</summary>
    public string? RequestId { get; }

    /// <summary>The answer's <c>Retry-After</c>, when it had one.</summary>
    public TimeSpan? RetryAfter { get; }

    internal static StoreApiException For(int status, string code, string message, IReadOnlyList<StoreErrorDetail> details, string? requestId, TimeSpan? retryAfter) => status switch
    {
        400 => new InvalidRequestException(status, code, message, details, requestId, retryAfter),
        401 => new UnauthenticatedException(status, code, message, details, requestId, retryAfter),
        402 => new InsufficientCreditsException(status, code, message, details, requestId, retryAfter),
        403 when code == "planRequired" => new PlanRequiredException(status, code, message, details, requestId, retryAfter),
        403 => new PermissionDeniedException(status, code, message, details, requestId, retryAfter),
        404 => new NotFoundException(status, code, message, details, requestId, retryAfter),
        409 => new InvalidStateException(status, code, message, details, requestId, retryAfter),
        429 => new RateLimitedException(status, code, message, details, requestId, retryAfter),
        503 => new ServiceUnavailableException(status, code, message, details, requestId, retryAfter),
        _ => new StoreApiException(status, code, message, details, requestId, retryAfter),
    };
}

/// <summary>400: the request did not fit (validationFailed names each field in Details, invalidCursor, malformedJson).</summary>
public class InvalidRequestException : StoreApiException
{
    internal InvalidRequestException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>401: the key is missing, unknown or revoked.</summary>
public class UnauthenticatedException : StoreApiException
{
    internal UnauthenticatedException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>402: the account that owns the key has too few credits for the action.</summary>
public class InsufficientCreditsException : StoreApiException
{
    internal InsufficientCreditsException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>403: the key's owner lacks the store permission the route checks.</summary>
public class PermissionDeniedException : StoreApiException
{
    internal PermissionDeniedException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>403 planRequired: the store owner's plan does not include dropshipping.</summary>
public sealed class PlanRequiredException : PermissionDeniedException
{
    internal PlanRequiredException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>404: unknown, outside the key's record scope, or in another store.</summary>
public class NotFoundException : StoreApiException
{
    internal NotFoundException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>409: the operation does not fit the record's status (pay on a confirmed order, a second cancel ...).</summary>
public class InvalidStateException : StoreApiException
{
    internal InvalidStateException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>429: too many requests; <see cref="StoreApiException.RetryAfter"/> says when to try again.</summary>
public class RateLimitedException : StoreApiException
{
    internal RateLimitedException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>503: the service or the supplier behind it could not answer now.</summary>
public class ServiceUnavailableException : StoreApiException
{
    internal ServiceUnavailableException(int s, string c, string m, IReadOnlyList<StoreErrorDetail> d, string? r, TimeSpan? a) : base(s, c, m, d, r, a) { }
}

/// <summary>The service could not be reached, or the connection broke before an answer came.</summary>
public sealed class StoreConnectionException : StoreException
{
    internal StoreConnectionException(string message, bool notSent, Exception inner) : base(message, inner) => NotSent = notSent;

    /// <summary>True when the request never left (no connection was made), so sending it again cannot repeat it.</summary>
    public bool NotSent { get; }
}

/// <summary>No answer within the time-out of one attempt.</summary>
public sealed class StoreTimeoutException : StoreException
{
    internal StoreTimeoutException(TimeSpan timeout, Exception? inner = null)
        : base($"No answer within {timeout.TotalMilliseconds:0} ms.", inner) => Timeout = timeout;

    /// <summary>The time-out that ran out.</summary>
    public TimeSpan Timeout { get; }
}
