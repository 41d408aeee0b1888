using System;
using System.Collections.Generic;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace StoreSuppliers;

/// <summary>One request as a generated service method describes it.</summary>
internal sealed class StoreRequest
{
    public StoreRequest(string method, string path, RequestOptions? options)
    {
        Method = method;
        Path = path;
        Options = options;
    }

    public string Method { get; }
    public string Path { get; }
    public RequestOptions? Options { get; }
    public IEnumerable<KeyValuePair<string, string>>? Query { get; set; }
    public byte[]? Body { get; set; }

    /// <summary>Safe to send again after a time-out, 429 or 503 (reads, submit which is idempotent per part, and keyed calls).</summary>
    public bool RetrySafe { get; set; }

    /// <summary>A create or money action: sent with an Idempotency-Key, one per call and the same on every retry.</summary>
    public bool Idempotent { get; set; }
}

/// <summary>A successful answer: its status and the value inside <c>{ result }</c>.</summary>
internal readonly struct StoreResponse
{
    public StoreResponse(int statusCode, JsonElement result)
    {
        StatusCode = statusCode;
        Result = result;
    }

    public int StatusCode { get; }
    public JsonElement Result { get; }

    public T Read<T>(JsonTypeInfo<T> info)
    {
        if (Result.ValueKind == JsonValueKind.Undefined) throw new StoreException($"The service answered {StatusCode} with no body where {typeof(T).Name} was expected.");
        try
        {
            return JsonSerializer.Deserialize(Result, info) ?? throw new StoreException($"The service answered null where {typeof(T).Name} was expected.");
        }
        catch (JsonException e)
        {
            throw new StoreException($"The service's answer does not fit {typeof(T).Name}: {e.Message}", e);
        }
    }
}

/// <summary>
/// The answer of an operation that either finishes at once (<see cref="Result"/>) or leaves the work to a
/// background job and answers 202 (<see cref="Accepted"/>): a large import, a part taken over by hand.
/// </summary>
public sealed class StoreAnswer<TResult, TAccepted>
    where TResult : class
    where TAccepted : class
{
    internal StoreAnswer(int statusCode, TResult? result, TAccepted? accepted)
    {
        StatusCode = statusCode;
        Result = result;
        Accepted = accepted;
    }

    /// <summary>The HTTP status the service answered.</summary>
    public int StatusCode { get; }

    /// <summary>The answer when the work was done at once; null after a 202.</summary>
    public TResult? Result { get; }

    /// <summary>The answer of a 202: what the background job works on; null otherwise.</summary>
    public TAccepted? Accepted { get; }
}
