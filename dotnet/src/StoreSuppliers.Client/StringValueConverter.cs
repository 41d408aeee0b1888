using System;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace StoreSuppliers;

/// <summary>Reads and writes an extensible enum as the string the service spells; unknown strings are kept.</summary>
internal abstract class StringValueConverter<T> : JsonConverter<T>
    where T : struct
{
    protected abstract T FromString(string value);

    public override T Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.String) throw new JsonException($"Expected a string for {typeof(T).Name}, got {reader.TokenType}.");
        return FromString(reader.GetString()!);
    }

    public override void Write(Utf8JsonWriter writer, T value, JsonSerializerOptions options) => writer.WriteStringValue(value.ToString());
}
